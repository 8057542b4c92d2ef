@_exported import Foundation
import RichPushRules
import RichPushVendorSupport
@_exported import UserNotifications

/// Airship's extension class, which an app subclasses, usually with an empty body
/// (`class NotificationService: UANotificationServiceExtension {}`). Its images follow richpush's `airship` profile
/// (`RichPushRules.Airship`); the rest is the newest Swift version's flow (UANotificationServiceExtension.swift, index
/// id 69355603184; AirshipNotificationMutationProvider.swift and MediaAttachmentPayload.swift @ 01e28d26):
///
/// - no `com.urbanairship.media_attachment` object: the request's own content is delivered;
/// - a media payload that does not decode: an unchanged copy, and an error logged;
/// - every URL downloaded at once; if one fails, none is attached, and the copy is delivered unchanged;
/// - else the attachments are added after any the content had, then `content`'s `title`, `subtitle` and `body`
///   replace the notification's (only when every download worked);
/// - ``serviceExtensionTimeWillExpire()`` delivers the request's original content; whichever comes first, the
///   download or the expiry, is the one delivery.
///
/// The attachments' identifiers are `""` (Airship gives `url_id`) and carry no thumbnail options: the shared loader
/// makes them. The Objective-C generations (`AirshipExtensions`, `AirshipAppExtensions`) share this class, though
/// they kept what had downloaded when one failed.
open class UANotificationServiceExtension: UNNotificationServiceExtension {
    /// The logging a subclass asks for (`override var airshipConfig`); errors to standard error by default.
    open var airshipConfig: AirshipExtensionConfig { .init() }

    private static let rules = RichPushRules.Airship()
    private static let loader = VendorAttachmentLoader(rules: rules)
    private var onExpire: (() -> Void)?

    open override func didReceive(
        _ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
    ) {
        let logger = AirshipExtensionLogger(airshipConfig)
        let finish = OnceContentHandler(contentHandler)
        onExpire = {
            logger.log(.error, "serviceExtensionTimeWillExpire expiring, canceling airshipTask")
            finish(request.content)
        }
        logger.log(.debug, "New request received: \(request.identifier)")
        let userInfo = request.content.userInfo
        guard let copy = request.content.mutableCopy() as? UNMutableNotificationContent else {
            logger.log(.error, "Unable to make mutable copy of request")
            return finish(request.content)
        }
        guard userInfo["com.urbanairship.media_attachment"] is [String: Any] else {
            logger.log(.debug, "Finishing request, no Airship args: \(request.identifier)")
            return finish(request.content)
        }
        let rules = Self.rules
        guard rules.mediaPayloadDecodes(in: UserInfoNode(userInfo)) else {
            logger.log(
                .error,
                "Failed to apply mutations to request \(request.identifier): com.urbanairship.media_attachment does not decode"
            )
            return finish(copy)
        }
        let text = Self.text(in: userInfo)
        let content = UncheckedContent(copy)
        Self.loader.load(for: userInfo) { attachments, failures in
            if failures.isEmpty {
                content.value.attachments += attachments
                if let title = text.title { content.value.title = title }
                if let subtitle = text.subtitle { content.value.subtitle = subtitle }
                if let body = text.body { content.value.body = body }
            } else {
                for failure in failures {
                    logger.log(.error, "Failed to apply mutations to request \(request.identifier): \(failure)")
                    VendorChannel.imageFailed(rules, failure)
                }
            }
            logger.log(.info, "Finished processing request: \(request.identifier)")
            finish(content.value)
        }
    }

    open override func serviceExtensionTimeWillExpire() {
        onExpire?()
    }

    /// The payload's `content`: the text that replaces the notification's once every image is attached.
    private static func text(in userInfo: [AnyHashable: Any]) -> (title: String?, subtitle: String?, body: String?) {
        let media = userInfo["com.urbanairship.media_attachment"] as? [String: Any]
        let text = media?["content"] as? [String: Any]
        return (text?["title"] as? String, text?["subtitle"] as? String, text?["body"] as? String)
    }
}

/// The content handler, called by whichever comes first of the downloads and the expiry, once.
private final class OnceContentHandler: @unchecked Sendable {
    // @unchecked: `handler` is read and cleared under `lock`.
    private let lock = NSLock()
    private var handler: ((UNNotificationContent) -> Void)?

    init(_ handler: @escaping (UNNotificationContent) -> Void) {
        self.handler = handler
    }

    func callAsFunction(_ content: UNNotificationContent) {
        lock.lock()
        let handler = self.handler
        self.handler = nil
        lock.unlock()
        handler?(content)
    }
}

/// iOS's mutable content, handed to the loader's completion on another thread; the extension touches it no more.
private struct UncheckedContent: @unchecked Sendable {
    let value: UNMutableNotificationContent

    init(_ value: UNMutableNotificationContent) {
        self.value = value
    }
}
