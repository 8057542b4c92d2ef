import UIKit
import UserNotifications

/// Downloads the payload's image, scales it down to at most 200 pixels wide with UIGraphicsImageRenderer, and attaches
/// it as a JPEG: the shape of extensions that keep big photos from costing the notification its memory and its
/// 10 MB attachment cap.
///
/// `fcm_options.image` names the image (https only, 5 s). A picture UIKit cannot read, a failed download or anything
/// else leaves the notification as it came; the content handler is called once.
class NotificationService: UNNotificationServiceExtension {
    /// The widest the attachment gets, in pixels.
    private let maxWidth: CGFloat = 200

    private let lock = NSLock()
    private var contentHandler: ((UNNotificationContent) -> Void)?
    private var bestAttemptContent: UNMutableNotificationContent?
    private var task: URLSessionDataTask?
    private var completed = false

    override func didReceive(
        _ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
    ) {
        // iOS may hand this instance another notification once this one's handler was called: it starts afresh.
        lock.lock()
        self.contentHandler = contentHandler
        completed = false
        lock.unlock()
        guard let content = request.content.mutableCopy() as? UNMutableNotificationContent,
            let address = (content.userInfo["fcm_options"] as? [String: Any])?["image"] as? String,
            let url = URL(string: address), url.scheme?.lowercased() == "https"
        else {
            complete(with: request.content)
            return
        }
        bestAttemptContent = content
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 5
        configuration.timeoutIntervalForResource = 5
        task = URLSession(configuration: configuration).dataTask(with: url) { [weak self] data, response, error in
            guard let self else { return }
            guard error == nil, let data, (response as? HTTPURLResponse)?.statusCode == 200,
                let image = UIImage(data: data)
            else {
                print("no image from \(url): \(error.map { "\($0)" } ?? "not a picture UIKit reads")")
                self.complete(with: content)
                return
            }
            if let attachment = self.resizedAttachment(of: image) {
                content.attachments = [attachment]
            }
            self.complete(with: content)
        }
        task?.resume()
    }

    override func serviceExtensionTimeWillExpire() {
        task?.cancel()
        if let bestAttemptContent { complete(with: bestAttemptContent) }
    }

    /// The image at most ``maxWidth`` pixels wide (never enlarged), as a JPEG attachment.
    private func resizedAttachment(of image: UIImage) -> UNNotificationAttachment? {
        let pixelWidth = image.size.width * image.scale
        let factor = min(1, maxWidth / pixelWidth)
        let size = CGSize(
            width: (pixelWidth * factor).rounded(), height: (image.size.height * image.scale * factor).rounded())
        let format = UIGraphicsImageRendererFormat()
        format.scale = 1
        format.opaque = true
        let resized = UIGraphicsImageRenderer(size: size, format: format).image { context in
            UIColor.white.setFill()
            context.fill(CGRect(origin: .zero, size: size))
            image.draw(in: CGRect(origin: .zero, size: size))
        }
        guard let jpeg = resized.jpegData(compressionQuality: 0.8) else { return nil }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString + ".jpg")
        do {
            try jpeg.write(to: file)
            return try UNNotificationAttachment(identifier: "image", url: file, options: nil)
        } catch {
            print("no attachment: \(error)")
            return nil
        }
    }

    /// Calls the content handler once; later calls are dropped.
    private func complete(with content: UNNotificationContent) {
        lock.lock()
        let handler = completed ? nil : contentHandler
        completed = true
        lock.unlock()
        handler?(content)
    }
}
