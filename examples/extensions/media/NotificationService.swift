import UserNotifications

/// Attaches audio or video, as vendor SDKs do for rich media: the payload's `media` names the file (`url`, https
/// only), optionally its type identifier (`type`, passed as `UNNotificationAttachmentOptionsTypeHintKey`, which
/// iOS prefers to the file's extension) and the poster frame's time in seconds (`thumbnailTime`, passed as
/// `UNNotificationAttachmentOptionsThumbnailTimeKey`) and the part of the picture the thumbnail shows (`clip`, `[x, y,
/// width, height]` in unit coordinates, passed as `UNNotificationAttachmentOptionsThumbnailClippingRectKey` in the
/// dictionary form `CGRect.dictionaryRepresentation` gives):
///
/// ```json
/// {"aps": {"alert": {"title": "Trailer", "body": "Watch now"}, "mutable-content": 1},
///  "media": {"url": "https://cdn.example.com/trailer.mp4", "type": "public.mpeg-4", "thumbnailTime": 1.0}}
/// ```
///
/// The file is downloaded to disk (a video may be 50 MB) within the extension's 30 s, and keeps the URL's file
/// extension. Whatever fails (the download, or iOS refusing the attachment: a type it does not attach, a file over
/// 5 MB of audio or 50 MB of video) leaves the notification as it came; the content handler is called once.
class NotificationService: UNNotificationServiceExtension {
    private var delivery: Delivery?
    private var task: URLSessionDownloadTask?

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
        guard let media = content.userInfo["media"] as? [String: Any],
            let address = media["url"] as? String, let url = URL(string: address), url.scheme?.lowercased() == "https"
        else {
            delivery.complete(with: content)
            return
        }
        var options: [AnyHashable: Any] = [:]
        if let type = media["type"] as? String { options[UNNotificationAttachmentOptionsTypeHintKey] = type }
        if let time = media["thumbnailTime"] as? Double {
            options[UNNotificationAttachmentOptionsThumbnailTimeKey] = time
        }
        if let clip = media["clip"] as? [Double], clip.count == 4 {
            options[UNNotificationAttachmentOptionsThumbnailClippingRectKey] = [
                "X": clip[0], "Y": clip[1], "Width": clip[2], "Height": clip[3],
            ]
        }
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 10
        configuration.timeoutIntervalForResource = 28
        let session = URLSession(configuration: configuration)
        task = session.downloadTask(with: url) { [weak self] location, response, error in
            guard let self else { return }
            delivery.complete(
                with: self.attach(location: location, response: response, error: error, from: url, options, to: content)
            )
        }
        task?.resume()
        session.finishTasksAndInvalidate()
    }

    override func serviceExtensionTimeWillExpire() {
        task?.cancel()
        if let delivery { delivery.complete(with: delivery.bestAttemptContent) }
    }

    /// The content with the downloaded file attached, or as it was when anything is wrong.
    private func attach(
        location: URL?, response: URLResponse?, error: Error?, from url: URL, _ options: [AnyHashable: Any],
        to content: UNMutableNotificationContent
    ) -> UNMutableNotificationContent {
        guard error == nil, let location, (response as? HTTPURLResponse)?.statusCode == 200 else {
            print(
                "no media from \(url): \(error.map { "\($0)" } ?? "HTTP \((response as? HTTPURLResponse)?.statusCode ?? 0)")"
            )
            return content
        }
        // The file keeps the URL's extension: iOS takes the type from it when there is no type hint.
        let file = FileManager.default.temporaryDirectory
            .appendingPathComponent(UUID().uuidString)
            .appendingPathExtension(url.pathExtension)
        do {
            try FileManager.default.moveItem(at: location, to: file)
            content.attachments = [try UNNotificationAttachment(identifier: "media", url: file, options: options)]
        } catch {
            print("no attachment: \(error)")
        }
        return content
    }
}
