import Foundation
import Synchronization

/// What the notification center shows for the app in this run, and what the app's extension registered in it: the
/// notifications presented so far (``Entry``, newest last), which of them an extension removed and on whose behalf,
/// and the categories an extension registered with `setNotificationCategories(_:)`, which replace `--categories` for
/// the rest of the run. One per notification system, beside its ``PhoneLedger`` (the badge).
///
/// Bounded: the newest ``capacity`` notifications are kept (iOS's Notification Center keeps a bounded list too; the
/// number is richpush's), and as many removals.
public final class DeliveredNotifications: Sendable {
    /// A notification the center shows: its request identifier, what the phone presented, the payload, when.
    public struct Entry: Sendable, Equatable {
        public var identifier: String
        /// The notification as the user knows it: its payload file, or the push's id.
        public var label: String
        public var content: HostContent
        /// The payload as JSON text (`userInfo`).
        public var userInfo: String
        public var date: Date

        public init(identifier: String, label: String, content: HostContent, userInfo: String = "{}", date: Date) {
            self.identifier = identifier
            self.label = label
            self.content = content
            self.userInfo = userInfo
            self.date = date
        }
    }

    /// Who removed a notification: the notification whose extension called `removeDeliveredNotifications` or
    /// `removeAllDeliveredNotifications`.
    public struct Removal: Sendable, Equatable {
        public var file: String
        public var identifier: String

        public init(file: String, identifier: String) {
            self.file = file
            self.identifier = identifier
        }

        public var jsonValue: JSONValue { ["file": .string(file), "identifier": .string(identifier)] }
    }

    private struct State {
        var entries: [Entry] = []
        /// Removed notifications by identifier, oldest first.
        var removals: [(identifier: String, by: Removal)] = []
        var categories: [NotificationCategory]?
    }

    private let state = Mutex(State())
    public static let capacity = 512

    public init() {}

    /// A notification the phone presented: shown in the notification center from now on. Said again (when the phone
    /// has drawn it), it keeps its place and date; one an extension removed meanwhile stays removed.
    public func deliver(_ entry: Entry) {
        state.withLock { state in
            guard !state.removals.contains(where: { $0.identifier == entry.identifier }) else { return }
            if let index = state.entries.firstIndex(where: { $0.identifier == entry.identifier }) {
                state.entries[index].content = entry.content
                return
            }
            state.entries.append(entry)
            if state.entries.count > Self.capacity { state.entries.removeFirst(state.entries.count - Self.capacity) }
        }
    }

    /// What the notification center shows now, oldest first.
    public var entries: [Entry] { state.withLock { $0.entries } }

    /// Removes the notifications with these identifiers, on behalf of `by`; the ones that were shown. An identifier
    /// nothing has (a wrong one, one already removed) removes nothing, as on iOS.
    public func remove(identifiers: [String], by: Removal) -> [Entry] {
        let wanted = Set(identifiers)
        return state.withLock { state in
            let removed = state.entries.filter { wanted.contains($0.identifier) }
            state.entries.removeAll { wanted.contains($0.identifier) }
            Self.note(removed, by: by, in: &state)
            return removed
        }
    }

    /// Removes every notification, on behalf of `by`; the ones that were shown.
    public func removeAll(by: Removal) -> [Entry] {
        state.withLock { state in
            let removed = state.entries
            state.entries = []
            Self.note(removed, by: by, in: &state)
            return removed
        }
    }

    private static func note(_ removed: [Entry], by: Removal, in state: inout State) {
        state.removals += removed.map { ($0.identifier, by) }
        if state.removals.count > capacity { state.removals.removeFirst(state.removals.count - capacity) }
    }

    /// Who removed the notification with this identifier; nil while it is shown (or never was).
    public func removal(of identifier: String) -> Removal? {
        state.withLock { state in state.removals.last { $0.identifier == identifier }?.by }
    }

    /// The categories an extension registered, replacing the app's (`--categories`) for the rest of the run.
    public func register(_ categories: [NotificationCategory]) {
        state.withLock { $0.categories = categories }
    }

    /// The app's categories now: those an extension registered last, with `base`'s app name, else `base`.
    public func categories(over base: AppCategories?) -> AppCategories? {
        guard let registered = state.withLock({ $0.categories }) else { return base }
        return AppCategories(appName: base?.appName, categories: registered)
    }
}

extension NotificationCategory {
    /// A category as an extension registered it; option and action names iOS does not have are left out.
    public init(_ category: HostCategory) {
        self.init(
            identifier: category.identifier,
            actions: category.actions.map { action in
                NotificationAction(
                    identifier: action.identifier, title: action.title,
                    options: Set(action.options.compactMap(NotificationAction.Option.init(rawValue:))),
                    textInput: action.textInputButtonTitle.map {
                        .init(buttonTitle: $0, placeholder: action.textInputPlaceholder ?? "")
                    })
            }, hiddenPreviewsBodyPlaceholder: category.hiddenPreviewsBodyPlaceholder,
            categorySummaryFormat: category.categorySummaryFormat,
            options: Set(category.options.compactMap(Option.init(rawValue:))))
    }

    /// As the host protocol carries it back (`getNotificationCategories`).
    public var hostCategory: HostCategory {
        HostCategory(
            identifier: identifier,
            actions: actions.map {
                HostAction(
                    identifier: $0.identifier, title: $0.title, options: $0.options.map(\.rawValue).sorted(),
                    textInputButtonTitle: $0.textInput?.buttonTitle, textInputPlaceholder: $0.textInput?.placeholder)
            }, hiddenPreviewsBodyPlaceholder: hiddenPreviewsBodyPlaceholder,
            categorySummaryFormat: categorySummaryFormat, options: options.map(\.rawValue).sorted())
    }
}

extension DeviceState {
    /// The phone's state as `UNNotificationSettings` gives it to the app
    /// (https://developer.apple.com/documentation/usernotifications/unnotificationsettings): provisional authorization
    /// delivers quietly (no alert, sound, badge or Lock Screen:
    /// https://developer.apple.com/documentation/usernotifications/asking-permission-to-use-notifications); the
    /// time-sensitive, critical and communication settings are supported only with their capability; scheduled delivery
    /// is the summary; previews as `--previews`.
    public var notificationSettings: HostNotificationSettings {
        let quiet = provisional ? "disabled" : "enabled"
        func capability(_ capability: Capability) -> String {
            capabilities.contains(capability) ? "enabled" : "notSupported"
        }
        return HostNotificationSettings(
            authorizationStatus: provisional ? "provisional" : "authorized", alertSetting: quiet, badgeSetting: quiet,
            soundSetting: quiet, lockScreenSetting: quiet, notificationCenterSetting: "enabled",
            criticalAlertSetting: capability(.critical), timeSensitiveSetting: capability(.timeSensitive),
            directMessagesSetting: capability(.communication),
            scheduledDeliverySetting: summary ? "enabled" : "disabled",
            showPreviewsSetting: ["always": "always", "when-unlocked": "whenAuthenticated", "never": "never"][
                previews.rawValue] ?? "always",
            alertStyle: provisional ? "none" : "banner")
    }
}
