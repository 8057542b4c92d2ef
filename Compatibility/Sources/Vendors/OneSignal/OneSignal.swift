@_exported import Foundation
@_exported import UserNotifications
import OneSignalExtension

/// OneSignal 2.x/3.x (`import OneSignal`): the same extension class methods as 5.x's `OneSignalExtension`, on the
/// class `OneSignal` (iOS_SDK/OneSignalSDK/Source/OneSignal.h @ 00b3e996, "#pragma mark Extension"), and the logging
/// calls an extension's file may make. The app-side API (app id, tags, prompts) is not here: an extension has no use
/// for it.
open class OneSignal: NSObject {
    /// Downloads the attachments and returns the content; the app then calls its handler with it (the only form
    /// before 3.5.0).
    @available(
        *, deprecated,
        message:
            "Please use didReceiveNotificationExtensionRequest:withMutableNotificationContent:withContentHandler: instead."
    )
    @discardableResult
    open class func didReceiveNotificationExtensionRequest(
        _ request: UNNotificationRequest, with replacementContent: UNMutableNotificationContent?
    ) -> UNMutableNotificationContent! {
        NotificationServiceExtensionHandler.didReceive(
            request, replacementContent: replacementContent, contentHandler: nil)
    }

    /// Returns the content; its attachments are downloaded, then `contentHandler` is called once with it.
    @discardableResult
    open class func didReceiveNotificationExtensionRequest(
        _ request: UNNotificationRequest, with replacementContent: UNMutableNotificationContent?,
        withContentHandler contentHandler: ((UNNotificationContent) -> Void)!
    ) -> UNMutableNotificationContent! {
        NotificationServiceExtensionHandler.didReceive(
            request, replacementContent: replacementContent, contentHandler: contentHandler)
    }

    /// The content to deliver when time runs out: `replacementContent` as it is, nothing downloaded.
    @discardableResult
    open class func serviceExtensionTimeWillExpireRequest(
        _ request: UNNotificationRequest, with replacementContent: UNMutableNotificationContent?
    ) -> UNMutableNotificationContent! {
        NotificationServiceExtensionHandler.timeWillExpire(request, replacementContent: replacementContent)
    }

    /// The log levels; OneSignal's own messages are not written here, so they change nothing.
    open class func setLogLevel(_ logLevel: ONE_S_LOG_LEVEL, visualLevel visualLogLevel: ONE_S_LOG_LEVEL) {}

    /// Writes `message` on standard error, as OneSignal's log writes to the console.
    open class func onesignalLog(_ logLevel: ONE_S_LOG_LEVEL, message: String) {
        FileHandle.standardError.write(Data("OneSignal: \(message)\n".utf8))
    }

    /// The SDK version this module stands for, as OneSignal spells it (`"031101"`, OneSignalCommonDefines.h of 3.11.1).
    open class func sdkVersionRaw() -> String { "031101" }

    open class func sdkSemanticVersion() -> String { "3.11.1" }
}

/// OneSignal's log levels (`ONE_S_LOG_LEVEL`, cases `ONE_S_LL_NONE` … in Objective-C; OneSignalLog.h @ 1d291010).
public enum ONE_S_LOG_LEVEL: UInt, Sendable {
    case LL_NONE = 0
    case LL_FATAL
    case LL_ERROR
    case LL_WARN
    case LL_INFO
    case LL_DEBUG
    case LL_VERBOSE
}
