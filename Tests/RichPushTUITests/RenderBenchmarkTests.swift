import Foundation
import RichPushCore
import RichPushGraphics
import Testing

@testable import RichPushTUI

/// Benchmarks run only when asked for (`scripts/bench-tui-render` sets RICHPUSH_BENCHMARKS=1), not in every
/// `swift test`: their figures go to the README, and a shared machine's timings are no test.
let benchmarksRequested = ProcessInfo.processInfo.environment["RICHPUSH_BENCHMARKS"] == "1"

/// A key press with 1,000 notifications in the list: reduce, then render the whole frame.
@Suite(.enabled(if: benchmarksRequested, "a benchmark: scripts/bench-tui-render runs it"))
struct RenderBenchmarkTests {
    @Test func keyPressToFrameWithAThousandNotifications() {
        let results = [Fixtures.richResult(), Fixtures.insecureResult(), Fixtures.timeoutResult()]
        var entries = (1...1_000).map { Fixtures.entry($0, results[$0 % 3], sentAt: Double($0)) }
        entries[999] = Fixtures.downloadingEntry(1_000, sentAt: 999)
        var state = Fixtures.state(entries)
        state.focus = .notifications
        let size = Fixtures.size
        let clock = ContinuousClock()

        var first: CellGrid?
        let firstFrame = clock.measure { first = render(state, size: size) }
        #expect(first?.text.contains("Notification Center (1000)") == true)

        let presses = 200
        var last: CellGrid?
        let elapsed = clock.measure {
            for press in 0..<presses {
                _ = reduce(&state, .moveSelection(press % 50 == 49 ? -49 : 1))
                _ = reduce(&state, .tick(Double(1_000 + press)))
                last = render(state, size: size)
            }
        }
        let perPress = elapsed / presses
        print(
            "richpush TUI benchmark: first frame \(firstFrame), key press to frame \(perPress) (1,000 notifications, 120x40)"
        )
        // The figure goes to the note; the test checks the frames are the right ones, not the time.
        #expect(state.notificationSelection == 0, "four rounds of 49 down and 49 up end where they began")
        _ = reduce(&state, .moveSelection(7))
        #expect(state.notificationSelection == 7)
        #expect(last?.text.contains("Notification Center (1000)") == true)
    }
}

/// A key press with 1,000 notifications that all have a thumbnail: reduce, find the images the frame needs
/// (as the run loop does after every event), render the whole frame. Prints min/median/max per press.
@Suite(.enabled(if: benchmarksRequested, "a benchmark: scripts/bench-tui-render runs it"))
struct ThumbnailBenchmarkTests {
    @Test func keyPressToFrameWithAThousandThumbnails() {
        let settings = ImageSettings(renderer: CellRenderer(colorMode: .indexed256, symbols: .quadrants))
        var pictures: [String: DecodedImage] = [:]
        let entries = (1...1_000).map { id -> NotificationEntry in
            var result = Fixtures.richResult()
            result.attachment?.file = "/tmp/richpush-TEMP/attachments/\(id)/cat.png"
            pictures["/tmp/richpush-TEMP/attachments/\(id)/cat.png"] = Pictures.quarters
            return Fixtures.entry(id, result, sentAt: Double(id))
        }
        var state = Fixtures.state(entries)
        state.focus = .notifications
        state.images = settings
        // Every thumbnail drawn by the real chafa, as if the user had scrolled through them all.
        let drawing = ImageDrawing(loader: PictureLoader(pictures: pictures), renderer: settings.renderer)
        for entry in state.notifications {
            if let key = ImageLayout.thumbnailKey(of: entry) {
                _ = reduce(&state, .imageRendered(key, drawing.render(key)))
            }
        }
        #expect(state.renderedImages.count == 1_000)
        let size = Fixtures.size
        let clock = ContinuousClock()
        var times: [Duration] = []
        var last: CellGrid?
        for press in 0..<400 {
            let elapsed = clock.measure {
                _ = reduce(&state, .moveSelection(press % 100 == 99 ? -99 : 1))
                _ = reduce(&state, .tick(Double(1_000 + press)))
                let needed = ImageLayout.needed(state).filter { state.renderedImages[$0] == nil }
                precondition(needed.isEmpty)
                last = render(state, size: size)
            }
            times.append(elapsed)
        }
        times.sort()
        print(
            "richpush TUI benchmark: key press to frame with 1,000 thumbnails (120x40, \(times.count) presses): min \(times[0]), median \(times[times.count / 2]), max \(times[times.count - 1])"
        )
        #expect(state.notificationSelection == 0, "four rounds of 99 down and 99 up end where they began")
        // Nine rows of notifications fit in 120x40; each shows its 8x3 thumbnail.
        #expect(last.map { $0.imageCellCount } == 9 * 24)
    }
}
