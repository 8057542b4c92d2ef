@_exported import Foundation
@_exported import UserNotifications
import RichPushRules
import RichPushVendorSupport

/// Optimove's extension entry point (OptimoveNotificationServiceExtension 5.0.0+; OptimoveNotificationService.swift @
/// 2bd2ff97, 6.10.0): Kumulos's, renamed. `OptimoveNotificationService.didReceive(request, withContentHandler:)` from
/// the Xcode template's `didReceive`.
///
/// Without `custom.a.k.message.data.id` the call returns without calling the content handler; otherwise
/// `attachments.pictureUrl` is fetched, named and attached by the shared rules (`RichPushRules.Optimove`, which
/// `richpush --sdk optimove` reads too) and the handler gets the content on the main queue. No delivery event since
/// 5.6.0. Action buttons, the badge and the pending-notification record need the app's App Group and are not
/// emulated.
public class OptimoveNotificationService {
    private static let rules = RichPushRules.Optimove()

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

/// The suffix of the App Group `group.<app bundle id><suffix>` the SDK shares with the app
/// (OptimobileShared/AppGroupsHelper.swift @ e7163db6); richpush has no App Group container, so it changes nothing.
public enum AppGroupConfig {
    nonisolated(unsafe) public static var suffix = ".optimove"
    // nonisolated(unsafe): as Optimove's, set by the app's code once, before the extension's work starts.
}
