import CourierKit
import MessageFormat
import UserNotifications

/// Courier's extension: the title is the sender (CourierKit, a framework target of the project), the body the
/// message with its shortcodes turned into emoji and cut to a preview (MessageFormat, a local Swift package), and
/// the thread the conversation's; then the picture, when the push has one.
class NotificationService: UNNotificationServiceExtension {
    var contentHandler: ((UNNotificationContent) -> Void)?
    var bestAttemptContent: UNMutableNotificationContent?

    override func didReceive(
        _ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
    ) {
        self.contentHandler = contentHandler
        bestAttemptContent = request.content.mutableCopy() as? UNMutableNotificationContent
        guard let content = bestAttemptContent else {
            contentHandler(request.content)
            return
        }
        if let sender = Sender(userInfo: content.userInfo) {
            content.title = sender.name
            content.threadIdentifier = ThreadNames.identifier(for: sender)
        }
        content.body = MessagePreview(content.body).text
        guard let address = content.userInfo["image"] as? String, let url = URL(string: address) else {
            contentHandler(content)
            return
        }
        URLSession.shared.downloadTask(with: url) { location, _, _ in
            if let location {
                let file = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent(url.lastPathComponent)
                try? FileManager.default.removeItem(at: file)
                if (try? FileManager.default.moveItem(at: location, to: file)) != nil,
                    let attachment = try? UNNotificationAttachment(identifier: "image", url: file, options: nil)
                {
                    content.attachments = [attachment]
                }
            }
            contentHandler(content)
        }.resume()
    }

    override func serviceExtensionTimeWillExpire() {
        if let contentHandler, let bestAttemptContent { contentHandler(bestAttemptContent) }
    }
}
