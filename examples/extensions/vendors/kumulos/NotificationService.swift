import KumulosSDKExtension
import UserNotifications

// Kumulos's extension: the Xcode template with its `didReceive` handing the request to
// KumulosNotificationService. For a Kumulos message (`custom.a.k.message.data.id`) the SDK fetches
// `attachments.pictureUrl` (an absolute URL, or a media id it resizes on its CDN to the screen's width), takes the
// file's extension from that URL (a query string included) or the suggested file name, and records the
// `k.message.delivered` event it would send. For any other push the SDK never calls the handler, so the template's
// time-out hook is what shows the notification.
class NotificationService: UNNotificationServiceExtension {
    var contentHandler: ((UNNotificationContent) -> Void)?
    var bestAttemptContent: UNMutableNotificationContent?

    override func didReceive(
        _ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
    ) {
        self.contentHandler = contentHandler
        bestAttemptContent = (request.content.mutableCopy() as? UNMutableNotificationContent)
        KumulosNotificationService.didReceive(request, withContentHandler: contentHandler)
    }

    override func serviceExtensionTimeWillExpire() {
        if let contentHandler = contentHandler, let bestAttemptContent = bestAttemptContent {
            contentHandler(bestAttemptContent)
        }
    }
}
