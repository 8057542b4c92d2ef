// A OneSignal 3.x extension, as apps pinned to that SDK still have it: the same shape as 5.x's, but the class methods
// are on `OneSignal` (`import OneSignal`), and the guide of that time set the log level first. It shows that richpush
// runs both generations alike: every attachment of `att` downloaded before the handler is called, by the
// `onesignal` profile, and the receipt recorded, never sent.
import OneSignal
import UserNotifications

class NotificationService: UNNotificationServiceExtension {
    var contentHandler: ((UNNotificationContent) -> Void)?
    var receivedRequest: UNNotificationRequest!
    var bestAttemptContent: UNMutableNotificationContent?

    override func didReceive(
        _ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
    ) {
        OneSignal.setLogLevel(.LL_VERBOSE, visualLevel: .LL_NONE)
        receivedRequest = request
        self.contentHandler = contentHandler
        bestAttemptContent = request.content.mutableCopy() as? UNMutableNotificationContent
        if let bestAttemptContent = bestAttemptContent {
            OneSignal.didReceiveNotificationExtensionRequest(
                receivedRequest, with: bestAttemptContent, withContentHandler: contentHandler)
        }
    }

    override func serviceExtensionTimeWillExpire() {
        if let contentHandler = contentHandler, let bestAttemptContent = bestAttemptContent {
            OneSignal.serviceExtensionTimeWillExpireRequest(receivedRequest, with: bestAttemptContent)
            contentHandler(bestAttemptContent)
        }
    }
}
