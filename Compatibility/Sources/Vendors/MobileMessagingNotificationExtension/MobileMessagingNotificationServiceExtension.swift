@_exported import Foundation
@_exported import UserNotifications
import RichPushRules
import RichPushVendorSupport

/// Infobip's extension entry point in 15.0.0+, module `MobileMessagingNotificationExtension`
/// (Classes/NotificationExtension/MobileMessagingNotificationServiceExtension.swift @ 85d714e8, 15.5.2).
///
/// A payload that is no Infobip message (`isCorrectPayload`: a string `messageId` beside `aps`) is handed back as it
/// came. Otherwise the delivery report is recorded as "would send" and `internalData.atts[0].url` is fetched, named
/// and attached by the shared rules (`RichPushRules.Infobip`, which `richpush --sdk infobip` reads too: 20 s, one
/// attempt where the SDK makes up to three); the handler then gets the content with the image, or the original
/// content without one. ``serviceExtensionTimeWillExpire()`` drops the stored handler, so the SDK never calls it
/// after that: the caller delivers its own content, as the sample does. The app code is read from the shared
/// keychain: richpush behaves as if the app had stored one. The message store in the App Group is not emulated.
public class MobileMessagingNotificationServiceExtension {
    private static let rules = RichPushRules.Infobip()
    private static let pending = PendingHandler()

    public class func didReceive(
        _ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
    ) {
        log("did receive request \(request.identifier)")
        didReceive(content: request.content, withContentHandler: contentHandler)
    }

    public class func didReceive(
        content: UNNotificationContent, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
    ) {
        guard let userInfo = content.userInfo as? [String: Any], isCorrectPayload(userInfo) else {
            log("could not recognize message")
            contentHandler(content)
            return
        }
        let token = pending.store(contentHandler)
        let copy = content.mutableCopy() as? UNMutableNotificationContent ?? UNMutableNotificationContent()
        VendorAttachmentLoader(rules: rules).populate(copy) { finished in
            pending.finish(token, with: finished.attachments.isEmpty ? content : finished)
        }
    }

    /// Stops the SDK's work for the notification in progress: its handler will not be called.
    public class func serviceExtensionTimeWillExpire() {
        pending.drop()
    }

    /// Whether `payload` is an Infobip message: a string `messageId` beside `aps` (the rules' own test).
    public class func isCorrectPayload(_ payload: [String: Any]) -> Bool {
        rules.isCorrectPayload(UserInfoNode(payload))
    }

    /// `MMNSELogger`: `print` lines with the module's prefix.
    private static func log(_ message: String) {
        print("[MobileMessagingNotificationExtension] \(message)")
    }

    /// The handler of the notification in progress (the SDK keeps one, in statics), called at most once.
    private final class PendingHandler: @unchecked Sendable {
        // @unchecked: every access holds `lock`.
        private let lock = NSLock()
        private var handler: ((UNNotificationContent) -> Void)?
        private var token = 0

        /// Keeps `handler` in place of any other; the token names this notification.
        func store(_ handler: @escaping (UNNotificationContent) -> Void) -> Int {
            lock.lock()
            defer { lock.unlock() }
            token += 1
            self.handler = handler
            return token
        }

        /// Calls the handler with `content` if it is still this notification's.
        func finish(_ token: Int, with content: UNNotificationContent) {
            lock.lock()
            let handler = token == self.token ? self.handler : nil
            if handler != nil { self.handler = nil }
            lock.unlock()
            handler?(content)
        }

        func drop() {
            lock.lock()
            defer { lock.unlock() }
            handler = nil
        }
    }
}
