// A Firebase Cloud Messaging extension in the shape Firebase's guide gives: the extension is its own subclass of
// UNNotificationServiceExtension, hands the delivery to BigQuery's metrics, then lets FirebaseMessaging's helper
// download `fcm_options.image` and call the content handler; on expiry it delivers its best attempt itself (the
// helper has no expiry entry point). Under richpush the helper follows the `firebase` profile (URLSession's 60 s, no
// status, type or size check, the file named from the suggested file name or the image/ MIME type), and the metrics
// are recorded as what Firebase would send, never sent.
import FirebaseMessaging
import UserNotifications

class NotificationService: UNNotificationServiceExtension {
    var contentHandler: ((UNNotificationContent) -> Void)?
    var bestAttemptContent: UNMutableNotificationContent?

    override func didReceive(
        _ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
    ) {
        self.contentHandler = contentHandler
        bestAttemptContent = request.content.mutableCopy() as? UNMutableNotificationContent
        guard let bestAttemptContent = bestAttemptContent else {
            contentHandler(request.content)
            return
        }
        // The helper calls the content handler, so it comes last.
        Messaging.serviceExtension().exportDeliveryMetricsToBigQuery(withMessageInfo: request.content.userInfo)
        Messaging.serviceExtension().populateNotificationContent(bestAttemptContent, withContentHandler: contentHandler)
    }

    override func serviceExtensionTimeWillExpire() {
        if let contentHandler = contentHandler, let bestAttemptContent = bestAttemptContent {
            contentHandler(bestAttemptContent)
        }
    }
}
