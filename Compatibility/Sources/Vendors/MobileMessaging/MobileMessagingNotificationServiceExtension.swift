@_exported import Foundation
@_exported import UserNotifications
import RichPushRules
import RichPushVendorSupport

/// Infobip's extension entry point up to 14.x, in module `MobileMessaging` (Classes/MobileMessaging/RichNotifications/
/// RichNotificationsExtensions.swift @ 14.4.3, 46a218f0).
///
/// A payload that is no Infobip message (`messageId` and `aps`) is handed back as it came. Otherwise the delivery
/// report is recorded as "would send", `internalData.atts[0].url` is fetched, named and attached by the shared rules
/// (`RichPushRules.Infobip` of generation `upTo14`: one attempt, URLSession's 60 s), and the handler gets the content
/// on the main queue. The app code comes from the shared keychain in 13.12+ (from ``startWithApplicationCode(_:)``
/// before): richpush behaves as if the app had stored one. The message store in the App Group is not emulated.
public final class MobileMessagingNotificationServiceExtension: NSObject {
    private static let rules = RichPushRules.Infobip(generation: .upTo14)

    /// A no-op since 13.12.0 (the app code is read from the shared keychain); required before.
    @available(
        *, deprecated, message: "The function is deprecated. You can safely delete the invocation from your code."
    )
    public class func startWithApplicationCode(_ applicationCode: String) {}

    @available(
        *, deprecated, message: "The function is deprecated. You can safely delete the invocation from your code."
    )
    public class func startWithApplicationCode(_ code: String, appGroupId: String) {}

    public class func didReceive(
        _ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
    ) {
        MobileMessaging.logger?.logDebug(
            message: "[MobileMessagingNotificationServiceExtension] did receive request \(request.identifier)")
        didReceive(content: request.content, withContentHandler: contentHandler)
    }

    public class func didReceive(
        content: UNNotificationContent, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
    ) {
        guard rules.isCorrectPayload(UserInfoNode(content.userInfo)) else {
            MobileMessaging.logger?.logDebug(
                message: "[MobileMessagingNotificationServiceExtension] could not recognize message")
            contentHandler(content)
            return
        }
        let copy = content.mutableCopy() as? UNMutableNotificationContent ?? UNMutableNotificationContent()
        VendorAttachmentLoader(rules: rules).populate(copy) { finished in
            // The handler gets the content on the main queue (`handlingGroup.notify(queue: DispatchQueue.main)`).
            MainQueueHandoff(finished, to: contentHandler).call()
        }
    }

    /// Cancels a task that is never set in 14.x: nothing stops, and the handler may still be called after the
    /// extension's own delivery (iOS ignores the second call).
    public class func serviceExtensionTimeWillExpire() {}
}
