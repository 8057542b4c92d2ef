import OptimoveNotificationServiceExtension
import UserNotifications

// Optimove's (Optimobile, 5.0+) extension: the Xcode template handing the request to OptimoveNotificationService,
// Kumulos's code under Optimove's names. For a message with `custom.a.k.message.data.id` it fetches
// `attachments.pictureUrl` (an absolute URL, or a media id resized on Optimove's CDN) and names the file by the URL
// path's extension (query ignored) or the suggested file name; it sends no delivery event from the extension. A push
// without the id never gets the handler called, so the template's time-out hook shows it.
class NotificationService: UNNotificationServiceExtension {
    var contentHandler: ((UNNotificationContent) -> Void)?
    var bestAttemptContent: UNMutableNotificationContent?

    override func didReceive(
        _ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
    ) {
        self.contentHandler = contentHandler
        bestAttemptContent = (request.content.mutableCopy() as? UNMutableNotificationContent)
        OptimoveNotificationService.didReceive(request, withContentHandler: contentHandler)
    }

    override func serviceExtensionTimeWillExpire() {
        if let contentHandler = contentHandler, let bestAttemptContent = bestAttemptContent {
            contentHandler(bestAttemptContent)
        }
    }
}
