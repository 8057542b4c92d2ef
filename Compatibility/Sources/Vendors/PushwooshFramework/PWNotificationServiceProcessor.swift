@_exported import Foundation
@_exported import UserNotifications
import RichPushRules
import RichPushVendorSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One notification as Pushwoosh's `PWNotificationServiceProcessor` handles it (PWNotificationServiceProcessor.m @
/// 88bf6db5, 7.1.3): a Pushwoosh message (`pw_msg`) gets its `attachment` image appended and its delivery event
/// (recorded, never sent); any other is handed back as a mutable copy, unchanged. The content handler is called on the
/// main queue, once: when the work is done, or earlier from ``expire()`` with whatever was applied by then.
///
/// Where the image is read and how it is fetched and named are the shared rules (`RichPushRules.Pushwoosh`), which
/// `richpush --sdk pushwoosh` reads too. The badge (`aps.pw_badge` with an App Group) is not emulated.
///
/// Not API in Pushwoosh's SDK (project visibility, outside the umbrella header); public here only for the older
/// `Pushwoosh` module, under an SPI name a team's code does not import.
@_spi(RichPushPushwoosh)
public final class PWNotificationServiceProcessor: @unchecked Sendable {
    // @unchecked: `content` and `contentHandler` are read and written on the main queue only (`start()` is called
    // there by the extension, the download's completion hops to it, and iOS calls `expire()` there).
    private let content: UNMutableNotificationContent
    private var contentHandler: ((UNNotificationContent) -> Void)?
    private let loader = VendorAttachmentLoader(rules: RichPushRules.Pushwoosh())

    /// `appGroupsName` is where the SDK would keep the badge count: accepted, not used.
    public init(
        request: UNNotificationRequest, appGroupsName: String?,
        contentHandler: @escaping (UNNotificationContent) -> Void
    ) {
        content =
            request.content.mutableCopy() as? UNMutableNotificationContent ?? UNMutableNotificationContent()
        self.contentHandler = contentHandler
    }

    /// Processes the notification; call on the main queue.
    public func start() {
        let userInfo = content.userInfo
        let rules = RichPushRules.Pushwoosh()
        guard rules.isPushwooshMessage(UserInfoNode(userInfo)) else {
            deliver()
            return
        }
        PushwooshLog.log(
            .PW_LL_INFO, "Notification service extension was called with payload: \(Self.text(of: userInfo))")
        VendorChannel.recordWouldSend(rules, for: userInfo)
        loader.load(for: userInfo) { attachments, failures in
            DispatchQueue.main.async {
                for failure in failures {
                    VendorChannel.imageFailed(rules, failure)
                    PushwooshLog.log(.PW_LL_ERROR, "Download file error: \(failure.detail)")
                }
                self.content.attachments += attachments
                self.deliver()
            }
        }
    }

    /// `expireWithFallback`: the content as it is now, if the handler was not called yet; call on the main queue.
    public func expire() {
        deliver()
    }

    /// The payload as JSON, sorted, for the log (the SDK logs the dictionary's description).
    private static func text(of userInfo: [AnyHashable: Any]) -> String {
        guard JSONSerialization.isValidJSONObject(userInfo),
            let data = try? JSONSerialization.data(withJSONObject: userInfo, options: [.sortedKeys])
        else { return "\(userInfo)" }
        return String(decoding: data, as: UTF8.self)
    }

    private func deliver() {
        guard let handler = contentHandler else { return }
        contentHandler = nil
        handler(content)
    }
}
