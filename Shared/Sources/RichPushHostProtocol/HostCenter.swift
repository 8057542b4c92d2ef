/// `UNUserNotificationCenter.current()` as an extension reaches it: each call the extension makes is one
/// ``HostEvent/center(serial:id:call:)`` line, and richpush answers every one with one
/// ``HostCommand/answer(serial:_:)`` line carrying the same serial (the host hands the answer to the call's completion
/// handler, or drops it when the call has none). richpush keeps what the calls mean (the notifications the phone
/// shows, the registered categories, the badge, the phone's settings): the extension only asks.
///
/// Bounded on richpush's side: a notification's first ``maxCallsPerNotification`` calls are carried out, later ones are
/// answered with ``HostCenterAnswer/error`` and counted; a call's lists are cut to ``maxListItems``.
public struct HostCenterCall: Codable, Sendable, Equatable {
    /// Which method was called; a name outside these makes the line no message (a protocol error).
    public enum Kind: String, Codable, Sendable, CaseIterable {
        /// `getDeliveredNotifications(completionHandler:)` / `deliveredNotifications()`.
        case getDelivered
        /// `removeDeliveredNotifications(withIdentifiers:)`, with ``identifiers``.
        case removeDelivered
        /// `removeAllDeliveredNotifications()`.
        case removeAllDelivered
        /// `setNotificationCategories(_:)`, with ``categories``.
        case setCategories
        /// `getNotificationCategories(completionHandler:)` / `notificationCategories()`.
        case getCategories
        /// `getNotificationSettings(completionHandler:)` / `notificationSettings()`.
        case getSettings
        /// `setBadgeCount(_:withCompletionHandler:)`, with ``badge``.
        case setBadgeCount
        /// `add(_:withCompletionHandler:)`, with ``request``.
        case add
    }

    public var kind: Kind
    public var identifiers: [String]?
    public var categories: [HostCategory]?
    public var badge: Int?
    public var request: HostLocalRequest?
    /// How many items of the call's list the host left out: it sends at most ``maxListItems``, so that the line stays
    /// under ``HostProtocol/maxLineBytes``.
    public var omitted: Int?

    public init(
        _ kind: Kind, identifiers: [String]? = nil, categories: [HostCategory]? = nil, badge: Int? = nil,
        request: HostLocalRequest? = nil, omitted: Int? = nil
    ) {
        self.omitted = omitted
        self.kind = kind
        self.identifiers = identifiers
        self.categories = categories
        self.badge = badge
        self.request = request
    }

    /// Calls richpush carries out for one notification; later ones are answered with an error and counted.
    public static let maxCallsPerNotification = 64
    /// Identifiers, categories or notifications richpush reads from one call or puts in one answer.
    public static let maxListItems = 256
}

/// richpush's answer to one ``HostCenterCall``: the field the call asked for, or ``error``.
public struct HostCenterAnswer: Codable, Sendable, Equatable {
    public var delivered: [HostDeliveredNotification]?
    public var categories: [HostCategory]?
    public var settings: HostNotificationSettings?
    /// Why the call was not carried out (over the bound of calls); the host hands it to a completion handler that
    /// takes an error, as `UNError`-like text.
    public var error: String?

    public init(
        delivered: [HostDeliveredNotification]? = nil, categories: [HostCategory]? = nil,
        settings: HostNotificationSettings? = nil, error: String? = nil
    ) {
        self.delivered = delivered
        self.categories = categories
        self.settings = settings
        self.error = error
    }
}

/// A notification the notification center shows (`UNNotification`): its request's identifier, content (as
/// presented), the payload as JSON text (its `userInfo`) and the date it was delivered, in seconds since 1970.
public struct HostDeliveredNotification: Codable, Sendable, Equatable {
    public var identifier: String
    public var content: HostContent
    public var userInfo: String?
    public var date: Double

    public init(identifier: String, content: HostContent, userInfo: String? = nil, date: Double) {
        self.identifier = identifier
        self.content = content
        self.userInfo = userInfo
        self.date = date
    }
}

/// A local notification request an extension adds (`UNNotificationRequest` with no trigger, or one richpush delivers
/// at once).
public struct HostLocalRequest: Codable, Sendable, Equatable {
    public var identifier: String
    public var content: HostContent

    public init(identifier: String, content: HostContent) {
        self.identifier = identifier
        self.content = content
    }
}

/// `UNNotificationCategory` as the extension registers it: option and action names are Apple's
/// (`hiddenPreviewsShowTitle`, `destructive`).
public struct HostCategory: Codable, Sendable, Equatable {
    public var identifier: String
    public var actions: [HostAction]
    public var intentIdentifiers: [String]
    public var hiddenPreviewsBodyPlaceholder: String?
    public var categorySummaryFormat: String?
    public var options: [String]

    public init(
        identifier: String, actions: [HostAction] = [], intentIdentifiers: [String] = [],
        hiddenPreviewsBodyPlaceholder: String? = nil, categorySummaryFormat: String? = nil, options: [String] = []
    ) {
        self.identifier = identifier
        self.actions = actions
        self.intentIdentifiers = intentIdentifiers
        self.hiddenPreviewsBodyPlaceholder = hiddenPreviewsBodyPlaceholder
        self.categorySummaryFormat = categorySummaryFormat
        self.options = options
    }
}

/// `UNNotificationAction` (with `textInputButtonTitle` and `textInputPlaceholder` for `UNTextInputNotificationAction`).
public struct HostAction: Codable, Sendable, Equatable {
    public var identifier: String
    public var title: String
    public var options: [String]
    public var textInputButtonTitle: String?
    public var textInputPlaceholder: String?

    public init(
        identifier: String, title: String, options: [String] = [], textInputButtonTitle: String? = nil,
        textInputPlaceholder: String? = nil
    ) {
        self.identifier = identifier
        self.title = title
        self.options = options
        self.textInputButtonTitle = textInputButtonTitle
        self.textInputPlaceholder = textInputPlaceholder
    }
}

/// `UNNotificationSettings` as richpush's phone gives them, each setting by Apple's case name: `authorizationStatus`
/// `authorized` or `provisional`; the settings `enabled`, `disabled` or `notSupported`; `showPreviewsSetting`
/// `always`, `whenAuthenticated` or `never`; `alertStyle` `banner`, `alert` or `none`.
public struct HostNotificationSettings: Codable, Sendable, Equatable {
    public var authorizationStatus: String
    public var alertSetting: String
    public var badgeSetting: String
    public var soundSetting: String
    public var lockScreenSetting: String
    public var notificationCenterSetting: String
    public var criticalAlertSetting: String
    public var timeSensitiveSetting: String
    public var directMessagesSetting: String
    public var scheduledDeliverySetting: String
    public var showPreviewsSetting: String
    public var alertStyle: String

    public init(
        authorizationStatus: String, alertSetting: String, badgeSetting: String, soundSetting: String,
        lockScreenSetting: String, notificationCenterSetting: String, criticalAlertSetting: String,
        timeSensitiveSetting: String, directMessagesSetting: String, scheduledDeliverySetting: String,
        showPreviewsSetting: String, alertStyle: String
    ) {
        self.authorizationStatus = authorizationStatus
        self.alertSetting = alertSetting
        self.badgeSetting = badgeSetting
        self.soundSetting = soundSetting
        self.lockScreenSetting = lockScreenSetting
        self.notificationCenterSetting = notificationCenterSetting
        self.criticalAlertSetting = criticalAlertSetting
        self.timeSensitiveSetting = timeSensitiveSetting
        self.directMessagesSetting = directMessagesSetting
        self.scheduledDeliverySetting = scheduledDeliverySetting
        self.showPreviewsSetting = showPreviewsSetting
        self.alertStyle = alertStyle
    }
}
