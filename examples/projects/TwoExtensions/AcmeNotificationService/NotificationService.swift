import UserNotifications

/// Attaches the product photo named by `image_url` to an order notification.
class NotificationService: UNNotificationServiceExtension {

    var contentHandler: ((UNNotificationContent) -> Void)?
    var bestAttemptContent: UNMutableNotificationContent?
    private var download: URLSessionDownloadTask?

    override func didReceive(
        _ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
    ) {
        self.contentHandler = contentHandler
        bestAttemptContent = (request.content.mutableCopy() as? UNMutableNotificationContent)

        guard let bestAttemptContent, let address = request.content.userInfo["image_url"] as? String,
            let url = URL(string: address)
        else {
            contentHandler(bestAttemptContent ?? request.content)
            return
        }
        download = URLSession.shared.downloadTask(with: url) { location, response, _ in
            if let location {
                let type = response?.mimeType == "image/png" ? "png" : "jpg"
                let file = FileManager.default.temporaryDirectory
                    .appendingPathComponent(UUID().uuidString + "." + type)
                if (try? FileManager.default.moveItem(at: location, to: file)) != nil,
                    let attachment = try? UNNotificationAttachment(identifier: "product", url: file, options: nil)
                {
                    bestAttemptContent.attachments = [attachment]
                }
            }
            contentHandler(bestAttemptContent)
        }
        download?.resume()
    }

    override func serviceExtensionTimeWillExpire() {
        download?.cancel()
        if let contentHandler, let bestAttemptContent {
            contentHandler(bestAttemptContent)
        }
    }
}
