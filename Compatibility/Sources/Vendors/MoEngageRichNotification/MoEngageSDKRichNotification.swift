@_exported import Foundation
@_exported import UserNotifications
import RichPushRules
import RichPushVendorSupport

/// The content handler's type, as MoEngage's module declares it (a lower-case typealias at module scope, in the
/// 7.x swiftinterface at 9f43f44e).
public typealias contentHandler = ((UNNotificationContent) -> Void)

/// MoEngage's rich notification entry point (MoEngageRichNotification 7.0 and later; the 7.15.0 swiftinterface at
/// 9f43f44e, MoEngage's sample NotificationServices/NotificationService.swift): `setAppGroupID(_:)`, then
/// `handle(richNotificationRequest:withContentHandler:)` from the extension's `didReceive`. What it does comes from the
/// `moengage` SDK profile's rules (`RichPushRules.MoEngage`), which `--sdk moengage` reads too. MoEngage ships
/// binaries only, so much is unconfirmed:
///
/// - a push without a `moengage` dictionary is not MoEngage's; the content handler gets it unchanged (unconfirmed:
///   that MoEngage calls the handler then);
/// - for a MoEngage push the impression is recorded as "would send", never sent, and `moengage.media-attachment` is
///   downloaded with URLSession (60 s, no status, Content-Type or size check, all unconfirmed) and named from the
///   response's MIME type, else the URL's extension (8.01.10); the content handler gets the content with the
///   attachment, or unchanged when the download fails;
/// - the badge update MoEngage's sample mentions is not emulated (its rule is unconfirmed).
///
/// MoEngage offers nothing for `serviceExtensionTimeWillExpire`: the extension's own override delivers its best
/// attempt.
public class MoEngageSDKRichNotification: NSObject, @unchecked Sendable {
    // @unchecked: no instance state; the App Group id is read and written under `lock`.
    private static let lock = NSLock()
    nonisolated(unsafe) private static var appGroup: String?

    public override init() {
        super.init()
    }

    /// The App Group the app shares with the extension (MoEngage keeps it under `moe_app_group_ID`); nothing under
    /// richpush reads it.
    public static func setAppGroupID(_ appGroupID: String) {
        lock.lock()
        defer { lock.unlock() }
        appGroup = appGroupID
    }

    static var appGroupID: String? {
        lock.lock()
        defer { lock.unlock() }
        return appGroup
    }

    /// Downloads the push's media, records its impression and hands the content to `contentHandler`, once.
    public static func handle(
        richNotificationRequest request: UNNotificationRequest,
        withContentHandler contentHandler: @escaping MoEngageRichNotification.contentHandler
    ) {
        guard request.content.userInfo["moengage"] is [AnyHashable: Any] else {
            contentHandler(request.content)
            return
        }
        let content = request.content.mutableCopy() as? UNMutableNotificationContent ?? UNMutableNotificationContent()
        VendorAttachmentLoader(rules: RichPushRules.MoEngage()).populate(
            content, replacingAttachments: true, completion: contentHandler)
    }
}
