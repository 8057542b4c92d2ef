import Foundation
import RichPushHostProtocol

/// A notification the system delivered: its request and the date it was delivered. Extensions get them from
/// `UNUserNotificationCenter.getDeliveredNotifications(completionHandler:)`; they do not make them.
/// https://developer.apple.com/documentation/usernotifications/unnotification
open class UNNotification: NSObject, @unchecked Sendable {
    /// https://developer.apple.com/documentation/usernotifications/unnotification/request
    open private(set) var request: UNNotificationRequest
    /// https://developer.apple.com/documentation/usernotifications/unnotification/date
    open private(set) var date: Date

    init(request: UNNotificationRequest, date: Date) {
        self.request = request
        self.date = date
        super.init()
    }

    /// As richpush answers it: the content as the phone presented it, `userInfo` the payload.
    package convenience init(_ delivered: HostDeliveredNotification) {
        let userInfo =
            delivered.userInfo.flatMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            } ?? [:]
        self.init(
            request: UNNotificationRequest(
                identifier: delivered.identifier,
                content: UNNotificationContent(delivered.content, userInfo: userInfo, origin: delivered.identifier)),
            date: Date(timeIntervalSince1970: delivered.date))
    }
}

/// What triggers a local notification; nil for a push, and for a request delivered at once.
/// https://developer.apple.com/documentation/usernotifications/unnotificationtrigger
open class UNNotificationTrigger: NSObject, @unchecked Sendable {
    open private(set) var repeats: Bool

    init(repeats: Bool) {
        self.repeats = repeats
        super.init()
    }
}

/// https://developer.apple.com/documentation/usernotifications/untimeintervalnotificationtrigger
open class UNTimeIntervalNotificationTrigger: UNNotificationTrigger, @unchecked Sendable {
    open private(set) var timeInterval: TimeInterval

    /// `init(timeInterval:repeats:)`.
    public init(timeInterval: TimeInterval, repeats: Bool) {
        self.timeInterval = timeInterval
        super.init(repeats: repeats)
    }
}

/// The app's authorization and the person's settings, as richpush's phone has them (`--provisional`, `--previews`,
/// `--capabilities`, `given.device`): asked with `UNUserNotificationCenter.getNotificationSettings(completionHandler:)`.
/// https://developer.apple.com/documentation/usernotifications/unnotificationsettings
open class UNNotificationSettings: NSObject, @unchecked Sendable {
    open private(set) var authorizationStatus: UNAuthorizationStatus
    open private(set) var alertSetting: UNNotificationSetting
    open private(set) var badgeSetting: UNNotificationSetting
    open private(set) var soundSetting: UNNotificationSetting
    open private(set) var lockScreenSetting: UNNotificationSetting
    open private(set) var notificationCenterSetting: UNNotificationSetting
    open private(set) var carPlaySetting: UNNotificationSetting = .notSupported
    open private(set) var announcementSetting: UNNotificationSetting = .notSupported
    open private(set) var criticalAlertSetting: UNNotificationSetting
    open private(set) var timeSensitiveSetting: UNNotificationSetting
    open private(set) var directMessagesSetting: UNNotificationSetting
    open private(set) var scheduledDeliverySetting: UNNotificationSetting
    open private(set) var showPreviewsSetting: UNShowPreviewsSetting
    open private(set) var alertStyle: UNAlertStyle
    open private(set) var providesAppNotificationSettings = false

    package init(_ settings: HostNotificationSettings) {
        authorizationStatus = UNAuthorizationStatus(named: settings.authorizationStatus)
        alertSetting = UNNotificationSetting(named: settings.alertSetting)
        badgeSetting = UNNotificationSetting(named: settings.badgeSetting)
        soundSetting = UNNotificationSetting(named: settings.soundSetting)
        lockScreenSetting = UNNotificationSetting(named: settings.lockScreenSetting)
        notificationCenterSetting = UNNotificationSetting(named: settings.notificationCenterSetting)
        criticalAlertSetting = UNNotificationSetting(named: settings.criticalAlertSetting)
        timeSensitiveSetting = UNNotificationSetting(named: settings.timeSensitiveSetting)
        directMessagesSetting = UNNotificationSetting(named: settings.directMessagesSetting)
        scheduledDeliverySetting = UNNotificationSetting(named: settings.scheduledDeliverySetting)
        showPreviewsSetting = UNShowPreviewsSetting(named: settings.showPreviewsSetting)
        alertStyle = UNAlertStyle(named: settings.alertStyle)
        super.init()
    }

    /// Outside richpush (no host): an authorized app with every setting on.
    package static let outsideRichPush = UNNotificationSettings(
        HostNotificationSettings(
            authorizationStatus: "authorized", alertSetting: "enabled", badgeSetting: "enabled",
            soundSetting: "enabled", lockScreenSetting: "enabled", notificationCenterSetting: "enabled",
            criticalAlertSetting: "notSupported", timeSensitiveSetting: "notSupported",
            directMessagesSetting: "notSupported", scheduledDeliverySetting: "disabled", showPreviewsSetting: "always",
            alertStyle: "banner"))
}

/// https://developer.apple.com/documentation/usernotifications/unauthorizationstatus
public enum UNAuthorizationStatus: Int, Sendable {
    case notDetermined = 0, denied, authorized, provisional, ephemeral

    init(named name: String) {
        self =
            ["notDetermined": .notDetermined, "denied": .denied, "provisional": .provisional, "ephemeral": .ephemeral][
                name] ?? .authorized
    }
}

/// https://developer.apple.com/documentation/usernotifications/unnotificationsetting
public enum UNNotificationSetting: Int, Sendable {
    case notSupported = 0, disabled, enabled

    init(named name: String) {
        self = ["notSupported": .notSupported, "disabled": .disabled][name] ?? .enabled
    }
}

/// https://developer.apple.com/documentation/usernotifications/unshowpreviewssetting
public enum UNShowPreviewsSetting: Int, Sendable {
    case always = 0, whenAuthenticated, never

    init(named name: String) {
        self = ["whenAuthenticated": .whenAuthenticated, "never": .never][name] ?? .always
    }
}

/// https://developer.apple.com/documentation/usernotifications/unalertstyle
public enum UNAlertStyle: Int, Sendable {
    case none = 0, banner, alert

    init(named name: String) {
        self = ["none": UNAlertStyle.none, "alert": .alert][name] ?? .banner
    }
}
