import RichPushCore
import Testing

@testable import RichPushTUI

/// A key press with 1,000 notifications in the list: reduce, then render the whole frame.
@Suite struct RenderBenchmarkTests {
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
        let elapsed = clock.measure {
            for press in 0..<presses {
                _ = reduce(&state, .moveSelection(press % 50 == 49 ? -49 : 1))
                _ = reduce(&state, .tick(Double(1_000 + press)))
                _ = render(state, size: size)
            }
        }
        let perPress = elapsed / presses
        print(
            "richpush TUI benchmark: first frame \(firstFrame), key press to frame \(perPress) (1,000 notifications, 120x40)"
        )
        #expect(perPress < .milliseconds(100), "a key press redraws well within a frame budget")
    }
}
