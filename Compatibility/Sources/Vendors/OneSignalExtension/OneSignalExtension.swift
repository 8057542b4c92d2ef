@_exported import Foundation
@_exported import UserNotifications

/// OneSignal 5.x's extension API (`import OneSignalExtension`): the class methods an extension calls from
/// `didReceive` and `serviceExtensionTimeWillExpire`, as OneSignal's header declares them
/// (OneSignalExtension/OneSignalExtension.h @ 1d291010): `request` non-null, `replacementContent` nullable, the
/// content handler and the result unannotated (implicitly unwrapped in Swift), so `with: bestAttemptContent`,
/// `with: self.bestAttemptContent` and `withContentHandler: self.contentHandler` all compile, as on iOS. What they do
/// is ``NotificationServiceExtensionHandler``'s.
open class OneSignalExtension: NSObject {
    /// Downloads the attachments and returns the content; the app then calls its handler with it.
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
}
