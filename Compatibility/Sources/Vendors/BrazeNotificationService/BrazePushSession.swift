import Foundation
import RichPushRules
import RichPushVendorSupport
import UserNotifications

/// One Braze notification being handled, by richpush's `braze` profile (`RichPushRules.Braze`, from the Appboy
/// sample, HelloSwift/HelloSwiftNotificationExtension/NotificationService.swift @ 6d42abf6):
///
/// - the image is `ab.att.url` with its type `ab.att.type`; without both the original content is delivered;
/// - it is downloaded (URLSession's defaults), named `<file>.<type>` and attached alone, replacing any attachment;
/// - a failure, or the expiry, delivers the original content; the first delivery is the only one.
final class BrazePushSession: @unchecked Sendable {
    // @unchecked: `contentHandler` is read and cleared under `lock`; the contents are handed over once.
    static let loader = VendorAttachmentLoader(rules: RichPushRules.Braze())

    private let lock = NSLock()
    private var contentHandler: ((UNNotificationContent) -> Void)?
    private let original: UNNotificationContent

    private init(original: UNNotificationContent, contentHandler: @escaping (UNNotificationContent) -> Void) {
        self.original = original
        self.contentHandler = contentHandler
    }

    /// Starts handling `request` when it is Braze's (`userInfo["ab"]`); nil, and nothing done, when it is not.
    static func start(
        request: UNNotificationRequest, contentHandler: @escaping (UNNotificationContent) -> Void
    ) -> BrazePushSession? {
        let userInfo = request.content.userInfo
        guard userInfo["ab"] != nil else { return nil }
        let original = request.content.copy() as? UNNotificationContent ?? request.content
        let session = BrazePushSession(original: original, contentHandler: contentHandler)
        guard let best = request.content.mutableCopy() as? UNMutableNotificationContent,
            !loader.rules.imageRequests(in: UserInfoNode(userInfo)).isEmpty
        else {
            session.deliver(original)
            return session
        }
        let content = UncheckedContent(best)
        loader.load(for: userInfo) { attachments, failures in
            for failure in failures {
                FileHandle.standardError.write(
                    Data("BrazeNotificationService: \(failure); the original content is delivered\n".utf8))
                VendorChannel.imageFailed(loader.rules, failure)
            }
            guard let attachment = attachments.first else { return session.deliver(session.original) }
            content.value.attachments = [attachment]
            session.deliver(content.value)
        }
        return session
    }

    /// The time is up: the original content, unless something was delivered already.
    func expire() {
        deliver(original)
    }

    private func deliver(_ content: UNNotificationContent) {
        lock.lock()
        let handler = contentHandler
        contentHandler = nil
        lock.unlock()
        handler?(content)
    }

    /// iOS's mutable content, handed to the loader's completion on another thread.
    private struct UncheckedContent: @unchecked Sendable {
        let value: UNMutableNotificationContent
        init(_ value: UNMutableNotificationContent) { self.value = value }
    }
}
