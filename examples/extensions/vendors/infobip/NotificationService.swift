import MobileMessagingNotificationExtension
import UserNotifications

// Infobip Mobile Messaging 15's extension, in the shape of the SDK's example: only payloads the SDK recognises
// (`messageId` beside `aps`) go to it; it records the delivery report it would send and fetches
// `internalData.atts[0].url` (20 s), naming the file with the URL path's extension only, so a URL without one gives a
// file iOS cannot type. At the deadline the SDK is told to stop and the original content is shown.
class NotificationService: UNNotificationServiceExtension {
    var contentHandler: ((UNNotificationContent) -> Void)?
    var originalContent: UNNotificationContent?

    override func didReceive(
        _ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
    ) {
        self.contentHandler = contentHandler
        originalContent = request.content
        let userInfo = request.content.userInfo as? [String: Any] ?? [:]
        if MobileMessagingNotificationServiceExtension.isCorrectPayload(userInfo) {
            MobileMessagingNotificationServiceExtension.didReceive(request, withContentHandler: contentHandler)
        } else {
            contentHandler(request.content)
        }
    }

    override func serviceExtensionTimeWillExpire() {
        MobileMessagingNotificationServiceExtension.serviceExtensionTimeWillExpire()
        if let contentHandler = contentHandler, let originalContent = originalContent {
            contentHandler(originalContent)
        }
    }
}
