import Foundation
import Synchronization

/// `UNUserNotificationCenter.current()` for one notification's extension: answers each call from the run's phone (the
/// notifications presented so far, the registered categories, the badge, the phone's settings), carries out what it
/// changes, says it in a sentence for the timeline, and keeps what the result reports (`notificationCenter`).
///
/// The extension is someone's code: an identifier that names nothing removes nothing (and is said), lists are cut to
/// ``HostCenterCall/maxListItems`` (the process's state already bounds the number of calls).
public final class NotificationCenterSession: Sendable {
    let delivered: DeliveredNotifications
    let ledger: PhoneLedger
    let device: DeviceState
    let baseCategories: AppCategories?
    /// This notification, as the removals it makes name it.
    let me: DeliveredNotifications.Removal

    /// What the result reports of the extension's calls.
    public struct Report: Sendable, Equatable {
        /// Calls carried out (those past the bound are counted in the extension's log).
        public var calls = 0
        /// The notifications this one's extension removed from the notification center (in the JSON, their files; the
        /// timeline names their identifiers too).
        public var removed: [DeliveredNotifications.Removal] = []
        /// The badge `setBadgeCount(_:)` set last; nil when it was not called.
        public var badge: Int?
        /// The categories `setNotificationCategories(_:)` registered last; nil when it was not called.
        public var categoriesRegistered: [String]?
        /// Local notification requests `add(_:)` handed over, in order.
        public var added: [HostLocalRequest] = []

        public init() {}

        /// The contract's `notificationCenter`.
        public var jsonValue: JSONValue {
            [
                "calls": .number(Double(calls)),
                "removed": .array(removed.map { .string($0.file) }),
                "badge": badge.map { .number(Double($0)) } ?? .null,
                "categoriesRegistered": categoriesRegistered.map { .array($0.map { .string($0) }) } ?? .null,
                "added": .array(added.map { .string($0.identifier) }),
            ]
        }
    }

    private let report = Mutex(Report())
    private let presentedBadge = Mutex<Int?>(nil)
    /// The app icon's badge when the notification was presented; nil before.
    public var badgeWhenPresented: Int? { presentedBadge.withLock { $0 } }
    public var currentReport: Report { report.withLock { $0 } }

    /// The notification's payload as JSON text, its `userInfo` in the center once presented.
    let userInfo: String

    public init(
        delivered: DeliveredNotifications, ledger: PhoneLedger, device: DeviceState, categories: AppCategories?,
        file: String, identifier: String, userInfo: String = "{}"
    ) {
        self.userInfo = userInfo
        self.delivered = delivered
        self.ledger = ledger
        self.device = device
        self.baseCategories = categories
        self.me = .init(file: file, identifier: identifier)
    }

    /// The notification is presented (its first content handler call): the notification center shows it from now on,
    /// so the next notification's extension finds it, however soon it runs.
    public func presented(_ content: HostContent) {
        presentedBadge.withLock { $0 = ledger.currentBadge }
        var shown = content
        shown.attachments = []
        shown.communication = nil
        delivered.deliver(
            .init(identifier: me.identifier, label: me.file, content: shown, userInfo: userInfo, date: Date()))
        // The local notifications added before: presented right after this one, so the next extension sees them.
        for request in currentReport.added { deliverLocal(request) }
    }

    /// A local notification `add(_:)` handed over, in the notification center.
    private func deliverLocal(_ request: HostLocalRequest) {
        delivered.deliver(
            .init(
                identifier: request.identifier, label: "\(me.file) add(\(request.identifier.prefix(80)))",
                content: request.content, date: Date()))
    }

    /// Carries out `call` and answers it; `detail` is the timeline's sentence.
    public func answer(_ call: HostCenterCall) -> (answer: HostCenterAnswer, detail: String) {
        report.withLock { $0.calls += 1 }
        let limit = HostCenterCall.maxListItems
        switch call.kind {
        case .getDelivered:
            let shown = delivered.entries.filter { $0.identifier != me.identifier }.suffix(limit)
            let answer = HostCenterAnswer(
                delivered: shown.map {
                    HostDeliveredNotification(
                        identifier: $0.identifier, content: $0.content, userInfo: $0.userInfo,
                        date: $0.date.timeIntervalSince1970)
                })
            let names = shown.map(\.label).joined(separator: ", ")
            return (
                answer,
                "getDeliveredNotifications: \(shown.count) delivered notification\(shown.count == 1 ? "" : "s")"
                    + (shown.isEmpty ? "" : " (\(Self.cut(names)))")
            )
        case .removeDelivered:
            let identifiers = Array((call.identifiers ?? []).prefix(limit))
            let removed = delivered.remove(identifiers: identifiers, by: me)
            report.withLock { $0.removed += removed.map { .init(file: $0.label, identifier: $0.identifier) } }
            let unknown = identifiers.filter { id in !removed.contains { $0.identifier == id } }
            var detail =
                removed.isEmpty
                ? "removeDeliveredNotifications: removed nothing"
                : "removeDeliveredNotifications: removed delivered notification "
                    + removed.map { "\($0.label) (\($0.identifier))" }.joined(separator: ", ")
            if !unknown.isEmpty {
                detail +=
                    "; \(unknown.count) identifier\(unknown.count == 1 ? "" : "s") the notification center does not show: "
                    + Self.cut(unknown.map { "\"\($0.prefix(80))\"" }.joined(separator: ", "))
            }
            return (HostCenterAnswer(), detail)
        case .removeAllDelivered:
            let removed = delivered.removeAll(by: me)
            report.withLock { $0.removed += removed.map { .init(file: $0.label, identifier: $0.identifier) } }
            return (
                HostCenterAnswer(),
                "removeAllDeliveredNotifications: removed \(removed.count) delivered notification\(removed.count == 1 ? "" : "s")"
                    + (removed.isEmpty ? "" : " (\(Self.cut(removed.map(\.label).joined(separator: ", "))))")
            )
        case .setCategories:
            let categories = (call.categories ?? []).prefix(limit).map(NotificationCategory.init(_:))
            delivered.register(Array(categories))
            report.withLock { $0.categoriesRegistered = categories.map(\.identifier) }
            return (
                HostCenterAnswer(),
                "setNotificationCategories: \(categories.count) categor\(categories.count == 1 ? "y" : "ies") registered for the rest of the run"
                    + (categories.isEmpty ? "" : " (\(Self.cut(categories.map(\.identifier).joined(separator: ", "))))")
            )
        case .getCategories:
            let categories = delivered.categories(over: baseCategories)?.categories ?? []
            return (
                HostCenterAnswer(categories: categories.prefix(limit).map(\.hostCategory)),
                "getNotificationCategories: \(categories.count) categor\(categories.count == 1 ? "y" : "ies")"
            )
        case .getSettings:
            let settings = device.notificationSettings
            return (
                HostCenterAnswer(settings: settings),
                "getNotificationSettings: \(settings.authorizationStatus), alerts \(settings.alertSetting), previews \(settings.showPreviewsSetting), time-sensitive \(settings.timeSensitiveSetting)"
            )
        case .setBadgeCount:
            guard let badge = call.badge, badge >= 0 else {
                return (
                    HostCenterAnswer(error: "badgeInputInvalid"),
                    "setBadgeCount(\(call.badge.map(String.init) ?? "nothing")): refused, UNError.badgeInputInvalid"
                )
            }
            ledger.setBadge(badge)
            report.withLock { $0.badge = badge }
            return (HostCenterAnswer(), "setBadgeCount(\(badge)): the app icon's badge is \(badge)")
        case .add:
            guard let request = call.request else {
                return (HostCenterAnswer(error: "no request"), "add: no request given")
            }
            report.withLock { $0.added.append(request) }
            // Added after this notification was presented: shown at once.
            if badgeWhenPresented != nil { deliverLocal(request) }
            return (
                HostCenterAnswer(),
                "add: local notification \"\(request.identifier.prefix(80))\" (\(Self.cut(request.content.title))), delivered after this one"
            )
        }
    }

    static func cut(_ text: String) -> String {
        text.count > 300 ? text.prefix(300) + "…" : text
    }
}
