@_exported import Foundation
@_exported import UserNotifications
import RichPushRules
import RichPushVendorSupport

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

/// `FIRMessagingExtensionHelper`: puts the image a Firebase notification names into it, by the rules richpush's
/// `firebase` SDK profile reads too (`RichPushRules.Firebase`, from firebase-ios-sdk's `FIRMessagingExtensionHelper.m`):
///
/// - the image URL is `userInfo["fcm_options"]["image"]` and nothing else; without one the content handler gets the
///   content unchanged;
/// - the image is downloaded with URLSession: no timeout of its own (URLSession's 60 s), no scheme check of its own
///   (App Transport Security refuses `http`), no status, Content-Type or size check;
/// - the file is named from the response's suggested file name or its `image/` MIME type, and attached with
///   `UNNotificationAttachment(identifier: "", url:, options: nil)`, which checks the type from that extension and
///   the size;
/// - on any error the content handler gets the content without an attachment; else `content.attachments =
///   [attachment]`, replacing any the content had.
///
/// Errors are logged to standard error as Firebase logs them (`[FirebaseMessaging][I-FCM020001] …`).
open class MessagingExtensionHelper: NSObject, @unchecked Sendable {
    // @unchecked: as Firebase's class, it keeps the last content and handler it was given, on any thread.
    private var contentHandler: ((UNNotificationContent) -> Void)?
    private var bestAttemptContent: UNMutableNotificationContent?
    private let loader = VendorAttachmentLoader(rules: RichPushRules.Firebase())

    public override init() {
        super.init()
    }

    /// Downloads `fcm_options.image`, attaches it to `content` and calls `contentHandler` once with `content`, with
    /// or without the attachment.
    open func populateNotificationContent(
        _ content: UNMutableNotificationContent,
        withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
    ) {
        self.contentHandler = contentHandler
        bestAttemptContent = content
        let requests = loader.rules.imageRequests(in: UserInfoNode(content.userInfo))
        guard !requests.isEmpty else {
            deliverNotification()
            return
        }
        loader.load(for: content.userInfo) { attachments, failures in
            for failure in failures { Self.logError(20001, "Failed to attach the image: \(failure)") }
            if let attachment = attachments.first {
                self.bestAttemptContent?.attachments = [attachment]
            }
            self.deliverNotification()
        }
    }

    /// Sends Firebase's delivery metrics for a message to BigQuery: nothing is sent here.
    open func exportDeliveryMetricsToBigQuery(withMessageInfo info: [AnyHashable: Any]) {}

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

/// The helper's name in Swift: Firebase's header gives the class no Swift name, so code that names the type writes
/// `FIRMessagingExtensionHelper` (FIRMessagingExtensionHelper.h).
public typealias FIRMessagingExtensionHelper = MessagingExtensionHelper
