import Foundation
import RichPushCore
import Testing

/// `UNUserNotificationCenter` as richpush answers an extension: what a person would notice on the phone (a message
/// gone from the notification center, the badge, the buttons of a category registered at run time).
@Suite struct NotificationCenterSessionTests {
    func entry(_ id: String, thread: String = "chat-ann") -> DeliveredNotifications.Entry {
        .init(
            identifier: id, label: "\(id).json", content: HostContent(title: "Ann", body: id, threadIdentifier: thread),
            date: Date(timeIntervalSince1970: 1_000))
    }

    func session(
        _ delivered: DeliveredNotifications, ledger: PhoneLedger = PhoneLedger(), device: DeviceState = .newPhone,
        categories: AppCategories? = nil, id: String = "m2"
    ) -> NotificationCenterSession {
        NotificationCenterSession(
            delivered: delivered, ledger: ledger, device: device, categories: categories, file: "\(id).json",
            identifier: id)
    }

    @Test("an extension sees the notifications presented before it, not itself, with content and date")
    func lookup() {
        let delivered = DeliveredNotifications()
        delivered.deliver(entry("m1"))
        delivered.deliver(entry("m2"))
        let (answer, detail) = session(delivered).answer(HostCenterCall(.getDelivered))
        #expect(answer.delivered?.map(\.identifier) == ["m1"])
        #expect(answer.delivered?.first?.content.threadIdentifier == "chat-ann")
        #expect(answer.delivered?.first?.date == 1_000)
        #expect(detail == "getDeliveredNotifications: 1 delivered notification (m1.json)")
    }

    @Test("removing a delivered notification takes it off the center and says who removed it")
    func removal() {
        let delivered = DeliveredNotifications()
        delivered.deliver(entry("m1"))
        let center = session(delivered)
        let (_, detail) = center.answer(HostCenterCall(.removeDelivered, identifiers: ["m1", "wrong"]))
        #expect(delivered.entries.isEmpty)
        #expect(delivered.removal(of: "m1") == .init(file: "m2.json", identifier: "m2"))
        #expect(center.currentReport.removed == [.init(file: "m1.json", identifier: "m1")])
        #expect(detail.contains("removed delivered notification m1.json (m1)"))
        #expect(detail.contains("1 identifier the notification center does not show: \"wrong\""))
        // A wrong id alone removes nothing, as on iOS.
        #expect(center.answer(HostCenterCall(.removeDelivered, identifiers: ["m1"])).detail.contains("removed nothing"))
    }

    @Test("removeAll empties the center")
    func removeAll() {
        let delivered = DeliveredNotifications()
        for id in ["m1", "m3"] { delivered.deliver(entry(id)) }
        let center = session(delivered)
        #expect(center.answer(HostCenterCall(.removeAllDelivered)).detail.contains("removed 2 delivered notifications"))
        #expect(delivered.entries.isEmpty && delivered.removal(of: "m3")?.file == "m2.json")
    }

    @Test("setBadgeCount sets the app icon's badge; a negative count is refused and changes nothing")
    func badge() {
        let ledger = PhoneLedger()
        let center = session(DeliveredNotifications(), ledger: ledger)
        _ = center.answer(HostCenterCall(.setBadgeCount, badge: 3))
        #expect(ledger.currentBadge == 3 && center.currentReport.badge == 3)
        #expect(center.answer(HostCenterCall(.setBadgeCount, badge: -1)).answer.error == "badgeInputInvalid")
        #expect(ledger.currentBadge == 3)
    }

    @Test("categories an extension registers replace --categories for the rest of the run, keeping the app's name")
    func categories() {
        let delivered = DeliveredNotifications()
        let base = AppCategories(appName: "Chat", categories: [NotificationCategory(identifier: "order")])
        let center = session(delivered, categories: base)
        _ = center.answer(
            HostCenterCall(
                .setCategories,
                categories: [
                    HostCategory(
                        identifier: "message",
                        actions: [
                            HostAction(
                                identifier: "reply", title: "Reply", options: ["bogus", "foreground"],
                                textInputButtonTitle: "Send")
                        ])
                ]))
        let now = delivered.categories(over: base)
        #expect(now?.appName == "Chat" && now?.categories.map(\.identifier) == ["message"])
        #expect(now?.category("message")?.actions.first?.options == [.foreground])
        #expect(now?.category("message")?.actions.first?.textInput?.buttonTitle == "Send")
        #expect(center.answer(HostCenterCall(.getCategories)).answer.categories?.map(\.identifier) == ["message"])
    }

    @Test("the settings are the phone's: provisional is quiet, previews and capabilities as given")
    func settings() {
        var device = DeviceState.newPhone
        device.provisional = true
        device.previews = .never
        device.capabilities = [.timeSensitive]
        let settings = session(DeliveredNotifications(), device: device).answer(HostCenterCall(.getSettings)).answer
            .settings
        #expect(settings?.authorizationStatus == "provisional" && settings?.alertSetting == "disabled")
        #expect(settings?.showPreviewsSetting == "never" && settings?.timeSensitiveSetting == "enabled")
        #expect(settings?.criticalAlertSetting == "notSupported")
        let plain = DeviceState.newPhone.notificationSettings
        #expect(plain.authorizationStatus == "authorized" && plain.showPreviewsSetting == "whenAuthenticated")
    }

    @Test("the center keeps a bounded number of notifications")
    func bounded() {
        let delivered = DeliveredNotifications()
        for index in 0..<(DeliveredNotifications.capacity + 10) { delivered.deliver(entry("m\(index)")) }
        #expect(delivered.entries.count == DeliveredNotifications.capacity)
        #expect(delivered.entries.first?.identifier == "m10")
    }
}
