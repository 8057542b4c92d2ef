import Foundation
import RichPushHostProtocol
import Testing

@testable import UserNotifications

@Suite("UNUserNotificationCenter as iOS gives it to an extension")
struct NotificationCenterTests {
    @Test("outside richpush nothing answers: no delivered notifications, an authorized app, both forms return")
    func outsideRichPush() async throws {
        let center = UNUserNotificationCenter.current()
        #expect(center === UNUserNotificationCenter.current(), "current() is one center")
        #expect(await center.deliveredNotifications().isEmpty)
        let settings = await center.notificationSettings()
        #expect(settings.authorizationStatus == .authorized && settings.alertSetting == .enabled)
        try await center.setBadgeCount(2)
        await #expect(throws: UNError.self) { try await center.setBadgeCount(-1) }
        let request = UNNotificationRequest(
            identifier: "local", content: UNMutableNotificationContent(),
            trigger: UNTimeIntervalNotificationTrigger(timeInterval: 1, repeats: false))
        try await center.add(request)
        #expect((request.trigger as? UNTimeIntervalNotificationTrigger)?.timeInterval == 1)
    }

    @Test("a category goes to richpush with Apple's option names and comes back the same")
    func categoryBothWays() {
        let category = UNNotificationCategory(
            identifier: "chat",
            actions: [
                UNTextInputNotificationAction(
                    identifier: "reply", title: "Reply", options: [.foreground], textInputButtonTitle: "Send",
                    textInputPlaceholder: "Message"),
                UNNotificationAction(identifier: "mute", title: "Mute", options: [.destructive]),
            ], intentIdentifiers: [], hiddenPreviewsBodyPlaceholder: "%u messages",
            options: [.hiddenPreviewsShowTitle])
        let described = category._described
        #expect(described.options == ["hiddenPreviewsShowTitle"])
        #expect(described.actions.map(\.options) == [["foreground"], ["destructive"]])
        #expect(described.actions[0].textInputButtonTitle == "Send")
        let back = UNNotificationCategory(described)
        #expect(back.identifier == "chat" && back.options == [.hiddenPreviewsShowTitle])
        #expect((back.actions[0] as? UNTextInputNotificationAction)?.textInputPlaceholder == "Message")
        #expect(back.actions[1].options == [.destructive] && back.hiddenPreviewsBodyPlaceholder == "%u messages")
        #expect(Set([category, back]).count == 1, "a set keys categories by identifier")
    }

    @Test("a delivered notification is a UNNotification with its request, payload and date")
    func deliveredNotification() {
        let notification = UNNotification(
            HostDeliveredNotification(
                identifier: "n-1", content: HostContent(title: "Ann", body: "Hi", threadIdentifier: "chat-ann"),
                userInfo: #"{"aps":{"alert":"Hi"},"messageID":"m1"}"#, date: 1_700_000_000))
        #expect(notification.request.identifier == "n-1")
        #expect(
            notification.request.content.threadIdentifier == "chat-ann" && notification.request.content.body == "Hi")
        #expect(notification.request.content.userInfo["messageID"] as? String == "m1")
        #expect(notification.date == Date(timeIntervalSince1970: 1_700_000_000))
    }

    @Test("the phone's settings read as Apple's enumerations")
    func settings() {
        let settings = UNNotificationSettings(
            HostNotificationSettings(
                authorizationStatus: "provisional", alertSetting: "disabled", badgeSetting: "disabled",
                soundSetting: "disabled", lockScreenSetting: "disabled", notificationCenterSetting: "enabled",
                criticalAlertSetting: "notSupported", timeSensitiveSetting: "enabled",
                directMessagesSetting: "notSupported", scheduledDeliverySetting: "enabled",
                showPreviewsSetting: "whenAuthenticated", alertStyle: "none"))
        #expect(settings.authorizationStatus == .provisional && settings.alertSetting == .disabled)
        #expect(settings.timeSensitiveSetting == .enabled && settings.showPreviewsSetting == .whenAuthenticated)
        #expect(settings.alertStyle == UNAlertStyle.none && settings.lockScreenSetting == .disabled)
    }
}
