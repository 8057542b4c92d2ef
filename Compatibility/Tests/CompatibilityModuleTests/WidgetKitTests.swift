import Foundation
import Synchronization
import Testing

@testable import WidgetKit

/// WidgetKit's reload calls from an extension: each is one note for the notification's timeline.
@Suite("WidgetKit: reload requests are recorded, no widgets are configured")
struct WidgetKitTests {
    @Test("reloadAllTimelines and reloadTimelines(ofKind:) each send one note naming the call")
    func reloads() {
        let notes = Mutex<[String]>([])
        let center = WidgetCenter(sink: { detail in notes.withLock { $0.append(detail) } })
        center.reloadAllTimelines()
        center.reloadTimelines(ofKind: "OrderStatus")
        #expect(notes.withLock { $0 } == ["reloadAllTimelines()", "reloadTimelines(ofKind: \"OrderStatus\")"])
    }

    @Test("the configured widgets: none")
    func configurations() async throws {
        #expect(try await WidgetCenter.shared.currentConfigurations().isEmpty)
    }
}
