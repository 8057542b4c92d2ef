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
