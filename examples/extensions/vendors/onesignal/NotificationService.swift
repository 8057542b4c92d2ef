// A OneSignal 5.x extension in the shape OneSignal's guide gives: the extension keeps the request, the handler and a
// mutable copy, and hands all three to `OneSignalExtension`, which downloads every attachment of `att` in turn before
// it calls the handler; on expiry it asks OneSignal for the content to deliver and delivers it itself. Under richpush
// the downloads follow the `onesignal` profile (a supported file extension or nothing, 50 MB), the attachments
// replace the content's, and the confirmed-delivery receipt is recorded as what OneSignal would send, with the
// conditions it needs, never sent.
import OneSignalExtension
import UserNotifications

class NotificationService: UNNotificationServiceExtension {
    var contentHandler: ((UNNotificationContent) -> Void)?
    var receivedRequest: UNNotificationRequest!
    var bestAttemptContent: UNMutableNotificationContent?

    override func didReceive(
        _ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
    ) {
        receivedRequest = request
        self.contentHandler = contentHandler
        bestAttemptContent = request.content.mutableCopy() as? UNMutableNotificationContent
        if let bestAttemptContent = bestAttemptContent {
            OneSignalExtension.didReceiveNotificationExtensionRequest(
                receivedRequest, with: bestAttemptContent, withContentHandler: self.contentHandler)
        }
    }

    override func serviceExtensionTimeWillExpire() {
        if let contentHandler = contentHandler, let bestAttemptContent = bestAttemptContent {
            OneSignalExtension.serviceExtensionTimeWillExpireRequest(receivedRequest, with: bestAttemptContent)
            contentHandler(bestAttemptContent)
        }
    }
}
