@_exported import Foundation
@_exported import UserNotifications

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
#if canImport(Glibc)
    import Glibc
#endif

/// Firebase Cloud Messaging's entry point (`FIRMessaging`), as far as a Notification Service Extension uses it:
/// ``serviceExtension()`` for the image, ``appDidReceiveMessage(_:)`` for analytics. There is no Firebase app here:
/// no token, no topics, no connection to Firebase.
open class Messaging: NSObject, @unchecked Sendable {
    // @unchecked: as Firebase's class, its properties are set from the app's own code.

    private static let shared = Messaging()
    private static let extensionHelper = MessagingExtensionHelper()

    /// The shared instance (`[FIRMessaging messaging]`).
    open class func messaging() -> Messaging { shared }

    /// The helper that puts the image of `fcm_options.image` into a notification (`[FIRMessaging extensionHelper]`,
    /// one for the process, as Firebase's).
    open class func serviceExtension() -> MessagingExtensionHelper { extensionHelper }

    private let lock = NSLock()
    private var seenMessageIDs: Set<String> = []

    /// The APNs device token the app hands to Firebase; kept, never sent.
    open var apnsToken: Data?
    /// The FCM registration token: nil, as before Firebase has registered the app.
    open var fcmToken: String? { nil }
    /// Whether Firebase registers the app by itself.
    open var isAutoInitEnabled = true
    /// The delegate told of token changes (never, here).
    open weak var delegate: (any MessagingDelegate)?

    /// Tells Firebase a message arrived, for its analytics. Nothing is sent; the result says whether the message is
    /// new (`.new`) or empty (`.unknown`), as Firebase's.
    @discardableResult
    open func appDidReceiveMessage(_ message: [AnyHashable: Any]) -> MessagingMessageInfo {
        guard !message.isEmpty else { return MessagingMessageInfo(status: .unknown) }
        if let identifier = message["gcm.message_id"] as? String {
            lock.lock()
            seenMessageIDs.insert(identifier)
            lock.unlock()
        }
        return MessagingMessageInfo(status: .new)
    }
}

/// Told of registration token changes (`FIRMessagingDelegate`).
public protocol MessagingDelegate: AnyObject {
    func messaging(_ messaging: Messaging, didReceiveRegistrationToken fcmToken: String?)
}

extension MessagingDelegate {
    public func messaging(_ messaging: Messaging, didReceiveRegistrationToken fcmToken: String?) {}
}

/// Whether Firebase had seen a message (`FIRMessagingMessageStatus`).
public enum MessagingMessageStatus: Int, Sendable {
    case unknown = 0
    case new = 1
}

/// What ``Messaging/appDidReceiveMessage(_:)`` returns (`FIRMessagingMessageInfo`).
open class MessagingMessageInfo: NSObject, @unchecked Sendable {
    public let status: MessagingMessageStatus

    init(status: MessagingMessageStatus) {
        self.status = status
        super.init()
    }
}

/// `FIRMessagingExtensionHelper`: puts the image a Firebase notification names into it, as Firebase's code does
/// (firebase-ios-sdk, `FIRMessagingExtensionHelper.m`; richpush's `firebase` SDK profile describes the same rules):
///
/// - the image URL is `userInfo["fcm_options"]["image"]` and nothing else; without one, or when it is not a URL,
///   the content handler gets the content unchanged;
/// - the image is downloaded with `URLSession(configuration: .default)`'s download task: no timeout of its own
///   (URLSession's 60 s), no scheme check of its own (App Transport Security refuses `http`), no Content-Type or
///   size check;
/// - the downloaded file is renamed to its temporary path + `.` + the path extension of the response's
///   `suggestedFilename` (as Apple's Foundation computes it: see ``suggestedFilename(_:requested:)``), and attached with `UNNotificationAttachment(identifier: "", url:, options: nil)`, which
///   checks the type from that extension and the size;
/// - on any error (download, rename, attachment) the content handler gets the content without an attachment;
///   else `content.attachments = [attachment]`, replacing any the content had.
///
/// Errors are logged to standard error as Firebase logs them (`[FirebaseMessaging][I-FCM020001] …`).
open class MessagingExtensionHelper: NSObject, @unchecked Sendable {
    // @unchecked: as Firebase's class, it keeps the last content and handler it was given, on any thread.
    private var contentHandler: ((UNNotificationContent) -> Void)?
    private var bestAttemptContent: UNMutableNotificationContent?

    /// Downloads `fcm_options.image`, attaches it to `content` and calls `contentHandler` once with `content`, with
    /// or without the attachment.
    open func populateNotificationContent(
        _ content: UNMutableNotificationContent,
        withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
    ) {
        self.contentHandler = contentHandler
        bestAttemptContent = content

        let options = content.userInfo["fcm_options"] as? [AnyHashable: Any]
        guard let imageValue = options?["image"] else {
            deliverNotification()
            return
        }
        guard let currentImageURL = imageValue as? String, let attachmentURL = URL(string: currentImageURL) else {
            Self.logError(20000, "The Image URL provided is invalid \(imageValue).")
            deliverNotification()
            return
        }
        loadAttachment(for: attachmentURL) { attachment in
            if let attachment {
                self.bestAttemptContent?.attachments = [attachment]
            }
            self.deliverNotification()
        }
    }

    /// Sends Firebase's delivery metrics for a message to BigQuery: nothing is sent here.
    open func exportDeliveryMetricsToBigQuery(withMessageInfo info: [AnyHashable: Any]) {}

    private func loadAttachment(
        for attachmentURL: URL, completion: @escaping @Sendable (UNNotificationAttachment?) -> Void
    ) {
        let session = URLSession(configuration: .default)
        let task = session.downloadTask(with: attachmentURL) { temporaryFileLocation, response, error in
            if let error {
                Self.logError(20001, "Failed to download image given URL \(attachmentURL), error: \(error)\n")
                completion(nil)
                return
            }
            guard let temporaryFileLocation else {
                completion(nil)
                return
            }
            let suggestedFilename = response.map { Self.suggestedFilename($0, requested: attachmentURL) } ?? ""
            let fileExtension = "." + (suggestedFilename as NSString).pathExtension
            let localURL = URL(fileURLWithPath: temporaryFileLocation.path + fileExtension)
            do {
                try FileManager.default.moveItem(at: temporaryFileLocation, to: localURL)
            } catch {
                Self.logError(
                    20002, "Failed to move the image file to local location: \(localURL), error: \(error)\n")
                completion(nil)
                return
            }
            do {
                let attachment = try UNNotificationAttachment(identifier: "", url: localURL, options: nil)
                completion(attachment)
            } catch {
                Self.logError(20003, "Failed to create attachment with URL \(localURL), error: \(error)\n")
                completion(nil)
            }
        }
        task.resume()
    }

    /// `URLResponse.suggestedFilename` as Apple's Foundation computes it (and richpush's SDK profiles model it): the
    /// Content-Disposition file name, else the URL's last path component (its host when the path has none) with
    /// the MIME type's preferred extension appended when it has none. Linux's Foundation says `Unknown` whenever
    /// there is no Content-Disposition.
    static func suggestedFilename(_ response: URLResponse, requested: URL) -> String {
        let disposition = (response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Disposition") ?? ""
        if disposition.lowercased().contains("filename"), let name = response.suggestedFilename, name != "Unknown" {
            return name
        }
        let url = response.url ?? requested
        let last = url.lastPathComponent
        var name = !last.isEmpty && last != "/" ? last : url.host ?? "Unknown"
        if (name as NSString).pathExtension.isEmpty, let mimeType = response.mimeType?.lowercased(),
            let preferred = preferredExtension[mimeType]
        {
            name += "." + preferred
        }
        return name
    }

    /// The extension Apple's type system prefers for a MIME type, for the types a notification shows and a few more.
    static let preferredExtension: [String: String] = [
        "image/jpeg": "jpeg", "image/png": "png", "image/gif": "gif", "image/webp": "webp", "image/heic": "heic",
        "image/bmp": "bmp", "image/tiff": "tiff", "image/svg+xml": "svg", "text/html": "html", "text/plain": "txt",
        "audio/mpeg": "mp3", "audio/mp4": "m4a", "audio/x-m4a": "m4a", "audio/wav": "wav", "audio/x-wav": "wav",
        "audio/aiff": "aiff", "audio/x-aiff": "aiff", "video/mp4": "mp4", "video/mpeg": "mpg", "video/avi": "avi",
        "video/x-msvideo": "avi", "video/quicktime": "mov",
    ]

    private func deliverNotification() {
        if let contentHandler, let bestAttemptContent {
            contentHandler(bestAttemptContent)
        }
    }

    /// One line on standard error, as Firebase's logger writes an error (`I-FCM020001`).
    private static func logError(_ code: Int, _ message: String) {
        let text = message.trimmingCharacters(in: .newlines).replacingOccurrences(of: "\n", with: " ")
        let line = "[FirebaseMessaging][I-FCM\(String(format: "%06d", code))] \(text)\n"
        var bytes = Array(line.utf8)
        bytes.withUnsafeMutableBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(STDERR_FILENO, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return
                }
                offset += written
            }
        }
    }
}
