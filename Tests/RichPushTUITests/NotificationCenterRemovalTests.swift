import RichPushCore
import Testing

@testable import RichPushTUI

/// What a person sees when a notification's extension calls `removeDeliveredNotifications`: the removed notification's
/// row leaves the list, as it leaves the phone's Notification Center, and the status line says so with the badge.
@Suite struct NotificationCenterRemovalTests {
    @Test func aNotificationWhoseExtensionRemovedAnEarlierOneTakesItsRowOff() {
        var first = Fixtures.richResult()
        first.requestIdentifier = "m1"
        first.content.title = "Ann"
        var other = Fixtures.insecureResult()
        other.requestIdentifier = "m0"
        var state = Fixtures.state([Fixtures.entry(2, first, sentAt: 2), Fixtures.entry(1, other, sentAt: 1)])
        state.librarySelection = 3
        _ = reduce(&state, .activate)
        let newID = state.notifications[0].id
        var second = Fixtures.insecureResult()
        second.requestIdentifier = "m2"
        var center = NotificationCenterSession.Report()
        center.calls = 3
        center.removed = [.init(file: "message-1.json", identifier: "m1")]
        center.badge = 1
        second.notificationCenter = center
        let effects = reduce(&state, .deliveryFinished(id: newID, second))
        #expect(state.notifications.map(\.id) == [newID, 1], "the removed notification's row is gone")
        #expect(effects == [.discardAttachments([first.attachment!.file])])
        #expect(state.status == "Its extension removed 1 delivered notification (Ann); set the app badge to 1")
    }

    @Test func anExtensionThatRemovedNothingLeavesEveryRow() {
        var first = Fixtures.richResult()
        first.requestIdentifier = "m1"
        var state = Fixtures.state([Fixtures.entry(1, first, sentAt: 1)])
        state.librarySelection = 3
        _ = reduce(&state, .activate)
        let newID = state.notifications[0].id
        var second = Fixtures.insecureResult()
        var center = NotificationCenterSession.Report()
        center.removed = [.init(file: "elsewhere.json", identifier: "not-shown")]
        second.notificationCenter = center
        _ = reduce(&state, .deliveryFinished(id: newID, second))
        #expect(state.notifications.map(\.id) == [newID, 1])
    }
}
