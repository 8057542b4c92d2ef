import InboxStyle
import UserNotifications

/// Puts the sender's name before the title (as the app's inbox does), the channel in the subtitle (the development pod
/// InboxStyle) and records the title in the App Group.
class NotificationService: UNNotificationServiceExtension {

    var contentHandler: ((UNNotificationContent) -> Void)?
    var bestAttemptContent: UNMutableNotificationContent?

    override func didReceive(
        _ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
    ) {
        self.contentHandler = contentHandler
        bestAttemptContent = (request.content.mutableCopy() as? UNMutableNotificationContent)

        guard let bestAttemptContent else {
            contentHandler(request.content)
            return
        }
        let sender = request.content.userInfo["sender"] as? String
        bestAttemptContent.title = AppGroup.displayTitle(sender: sender, title: bestAttemptContent.title)
        if let subtitle = InboxStyle.subtitle(channel: request.content.userInfo["channel"] as? String) {
            bestAttemptContent.subtitle = subtitle
        }
        if let file = AppGroup.lastNotificationFile {
            try? bestAttemptContent.title.write(to: file, atomically: true, encoding: .utf8)
        }
        contentHandler(bestAttemptContent)
    }

    override func serviceExtensionTimeWillExpire() {
        if let contentHandler, let bestAttemptContent {
            contentHandler(bestAttemptContent)
        }
    }
}
