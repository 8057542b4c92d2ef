import Foundation
import RichPushRules
import RichPushVendorSupport
import UserNotifications

#if canImport(Glibc)
    import Glibc
#endif

/// `FIRMessagingExtensionHelper`: puts the image a Firebase notification names into it, by the rules richpush's
/// `firebase` SDK profile reads too (`RichPushRules.Firebase`, from firebase-ios-sdk's `FIRMessagingExtensionHelper.m`
/// @ 6c7e8a73):
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
/// Errors are logged to standard error as Firebase logs them (`[FirebaseMessaging][I-FCM020001] …`) and reported to
/// richpush, whose result gives the reason as `--sdk firebase` does.
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
        guard let request = loader.rules.imageRequests(in: UserInfoNode(content.userInfo)).first else {
            deliverNotification()
            return
        }
        loader.load(for: content.userInfo) { [rules = loader.rules] attachments, failures in
            for failure in failures {
                Self.log(Self.code(for: failure), Self.message(for: failure, url: request.url))
                VendorChannel.imageFailed(rules, failure)
            }
            if let attachment = attachments.first {
                self.bestAttemptContent?.attachments = [attachment]
            }
            self.deliverNotification()
        }
    }

    /// Hands a MESSAGE_DELIVERED event for BigQuery to Firebase's transport, which uploads it later: here it is
    /// recorded as what Firebase would send, and nothing is sent. As Firebase's, it needs `google.c.sender.id`, then
    /// `gcm.message_id` and `google.c.fid` as strings, and logs the first that is missing (codes 2005-2007,
    /// FIRMessagingCode.h @ d9fc76a7).
    open func exportDeliveryMetricsToBigQuery(withMessageInfo info: [AnyHashable: Any]) {
        if info["google.c.sender.id"] == nil {
            return Self.log(2005, "Delivery logging failed: Invalid project ID")
        }
        if !(info["gcm.message_id"] is String) {
            return Self.log(2006, "Delivery logging failed: Invalid Message ID")
        }
        if !(info["google.c.fid"] is String) {
            return Self.log(2007, "Delivery logging failed: Invalid Instance ID")
        }
        VendorChannel.recordWouldSend(loader.rules, for: info)
    }

    private func deliverNotification() {
        if let contentHandler, let bestAttemptContent {
            contentHandler(bestAttemptContent)
        }
    }

    /// Firebase's code for a failure: 20000 for a URL it cannot make, 20003 for an attachment iOS refused, 20001 for
    /// the download (FIRMessagingCode.h @ d9fc76a7).
    private static func code(for failure: VendorAttachmentLoader.Failure) -> Int {
        switch failure.reason {
        case .invalidURL: 20000
        case .attachmentRejected: 20003
        default: 20001
        }
    }

    /// Firebase's words for a failure, with richpush's reason after them.
    private static func message(for failure: VendorAttachmentLoader.Failure, url: String) -> String {
        switch failure.reason {
        case .invalidURL: "The Image URL provided is invalid \(url). (\(failure))"
        case .attachmentRejected: "Failed to create attachment with URL \(url), error: \(failure.detail)"
        default: "Failed to download image given URL \(url), error: \(failure)"
        }
    }

    /// One line on standard error, as Firebase's logger writes one (`[FirebaseMessaging][I-FCM020001] …`).
    private static func log(_ code: Int, _ message: String) {
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
/// `FIRMessagingExtensionHelper` (FIRMessagingExtensionHelper.h @ 35b001e8).
public typealias FIRMessagingExtensionHelper = MessagingExtensionHelper
