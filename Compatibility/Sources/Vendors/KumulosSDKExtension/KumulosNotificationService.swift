@_exported import Foundation
@_exported import UserNotifications
import RichPushRules
import RichPushVendorSupport

/// Kumulos's extension entry point (KumulosSDKExtension 7.0.0 – 10.0.0; Sources/Extension/KumulosNotificationService.swift
/// @ 5360855d): `KumulosNotificationService.didReceive(request, withContentHandler: contentHandler)` from the Xcode
/// template's `didReceive`.
///
/// A push without `custom.a.k.message.data.id` is not Kumulos's: the call returns without ever calling the content
/// handler (the template's `serviceExtensionTimeWillExpire` delivers, or iOS shows the original content at the
/// deadline). Otherwise `attachments.pictureUrl` (a URL, or a media id resized by Kumulos's CDN) is fetched, named
/// and attached by the shared rules (`RichPushRules.Kumulos`, which `richpush --sdk kumulos` reads too), the delivery
/// event is recorded as "would send", and the handler gets the content on the main queue. Action buttons, the badge
/// and the pending-notification record need the app's App Group and are not emulated.
public class KumulosNotificationService {
    private static let rules = RichPushRules.Kumulos()

    public class func didReceive(
        _ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
    ) {
        let content =
            request.content.mutableCopy() as? UNMutableNotificationContent ?? UNMutableNotificationContent()
        guard rules.handlesMessage(in: UserInfoNode(content.userInfo)) else { return }
        VendorAttachmentLoader(rules: rules).populate(content) { finished in
            // The handler gets the content on the main queue (`dispatchGroup.notify(queue: .main)`).
            MainQueueHandoff(finished, to: contentHandler).call()
        }
    }
}

/// The suffix of the App Group `group.<app bundle id><suffix>` the SDK shares with the app (AppGroupsHelper.swift @
/// 18e7f067). Set before `didReceive` when the app uses another; richpush has no App Group container, so it changes
/// nothing here.
public struct AppGroupConfig {
    nonisolated(unsafe) public static var suffix = ".kumulos"
    // nonisolated(unsafe): as Kumulos's, set by the app's code once, before the extension's work starts.
}

/// Kumulos's media URL helper: a public type without public members (MediaHelper.swift @ 5360855d); the URL rule
/// is the shared rules'.
public class MediaHelper {}
