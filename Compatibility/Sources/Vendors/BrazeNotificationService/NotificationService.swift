@_exported import Foundation
@_exported import UserNotifications

/// Braze's extension class (`BrazeNotificationService.NotificationService`), which an app subclasses with an empty
/// body, as Braze's sample and documentation show (Examples/Swift/Sources/PushNotificationsServiceExtension/
/// NotificationService.swift @ 69b935ad; DocC `brazenotificationservice/notificationservice.json` @ cef09df2). Its
/// `didReceive` is ``brazeHandle(request:contentHandler:)``, showing a notification that is not Braze's as it came.
///
/// Braze ships this class only as a binary: what it does with the image is richpush's `braze` profile
/// (`RichPushRules.Braze`, the Appboy-era sample Braze's migration guide calls fully compatible), not confirmed from
/// Braze's own code, and so is ``serviceExtensionTimeWillExpire()`` delivering the original content, which Braze
/// does not document.
open class NotificationService: UNNotificationServiceExtension {
    /// The notification being handled, for the expiry.
    private var session: BrazePushSession?

    open override func didReceive(
        _ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
    ) {
        session = BrazePushSession.start(request: request, contentHandler: contentHandler)
        if session == nil { contentHandler(request.content) }
    }

    /// Delivers the original content, unless the image was delivered first.
    open override func serviceExtensionTimeWillExpire() {
        session?.expire()
    }
}
