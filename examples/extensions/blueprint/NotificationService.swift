import UserNotifications

/// The blueprint's extension, done right: one 5 s deadline for the whole download, https only, the image's type
/// from the response (`image/*` only, under 10 MB), the file streamed to disk rather than held in memory, and a
/// completion flag so the content handler is called exactly once, whether the download, a failure or
/// `serviceExtensionTimeWillExpire()` comes first.
///
/// iOS may hand one instance a second `didReceive` after the first one's handler was called, and keep the process
/// for later notifications (`--extension-process`): what belongs to a notification lives in its own ``Delivery``,
/// never in a property a later one overwrites, and the session is invalidated once its download is done.
class NotificationService: UNNotificationServiceExtension {
    private var delivery: Delivery?
    private var task: URLSessionDownloadTask?

    /// iOS refuses image attachments over 10 MB.
    private let maxImageBytes = 10_000_000

    /// One notification's content handler, called once, and the content to fall back on.
    private final class Delivery: @unchecked Sendable {
        // @unchecked: `completed` is read and written under `lock` only.
        private let lock = NSLock()
        private let contentHandler: (UNNotificationContent) -> Void
        private var completed = false
        let bestAttemptContent: UNNotificationContent

        init(
            contentHandler: @escaping (UNNotificationContent) -> Void, bestAttemptContent: UNNotificationContent
        ) {
            self.contentHandler = contentHandler
            self.bestAttemptContent = bestAttemptContent
        }

        /// Calls the content handler once; later calls are dropped.
        func complete(with content: UNNotificationContent) {
            lock.lock()
            let first = !completed
            completed = true
            lock.unlock()
            if first { contentHandler(content) }
        }
    }

    override func didReceive(
        _ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
    ) {
        guard let content = request.content.mutableCopy() as? UNMutableNotificationContent else {
            contentHandler(request.content)
            return
        }
        let delivery = Delivery(contentHandler: contentHandler, bestAttemptContent: content)
        self.delivery = delivery
        guard let url = imageURL(in: content.userInfo), url.scheme?.lowercased() == "https" else {
            delivery.complete(with: content)
            return
        }
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 5
        configuration.timeoutIntervalForResource = 5
        let session = URLSession(configuration: configuration)
        task = session.downloadTask(with: url) { [weak self] location, response, error in
            guard let self else { return }
            delivery.complete(with: self.attach(location: location, response: response, error: error, to: content))
        }
        task?.resume()
        // The session lets go of what it holds once its download is done.
        session.finishTasksAndInvalidate()
    }

    override func serviceExtensionTimeWillExpire() {
        task?.cancel()
        if let delivery { delivery.complete(with: delivery.bestAttemptContent) }
    }

    /// The image URL: `fcm_options.image`, then `notification.image`.
    private func imageURL(in userInfo: [AnyHashable: Any]) -> URL? {
        let fcm = (userInfo["fcm_options"] as? [String: Any])?["image"] as? String
        let notification = (userInfo["notification"] as? [String: Any])?["image"] as? String
        return (fcm ?? notification).flatMap { URL(string: $0) }
    }

    /// The content with the downloaded image attached, or as it was when anything is wrong.
    private func attach(
        location: URL?, response: URLResponse?, error: Error?, to content: UNMutableNotificationContent
    ) -> UNMutableNotificationContent {
        guard error == nil, let location, let http = response as? HTTPURLResponse, http.statusCode == 200,
            let mimeType = http.mimeType?.lowercased(), mimeType.hasPrefix("image/"),
            let fileExtension = fileExtension(forMIMEType: mimeType)
        else { return content }
        let size = (try? FileManager.default.attributesOfItem(atPath: location.path)[.size] as? NSNumber)?.intValue ?? 0
        guard size > 0, size < maxImageBytes else { return content }
        // The type comes from the response, never from the URL's path.
        let file = FileManager.default.temporaryDirectory
            .appendingPathComponent(UUID().uuidString)
            .appendingPathExtension(fileExtension)
        do {
            try FileManager.default.moveItem(at: location, to: file)
            content.attachments = [try UNNotificationAttachment(identifier: "image", url: file, options: nil)]
        } catch {
            print("no attachment: \(error)")
        }
        return content
    }

    private func fileExtension(forMIMEType mimeType: String) -> String? {
        switch mimeType {
        case "image/jpeg", "image/jpg": return "jpg"
        case "image/png": return "png"
        case "image/gif": return "gif"
        default: return nil
        }
    }
}
