import Foundation
import RichPushRules
import RichPushVendorSupport
import UserNotifications

// One file for both OneSignal generations: the `OneSignal` module (2.x/3.x) links this same file, as the package
// gives it no dependency on `OneSignalExtension`. Each module compiles its own copy of these internal types.

/// What OneSignal's `OneSignalNotificationServiceExtensionHandler` does with a notification, for
/// `OneSignalExtension` (5.x) and `OneSignal` (2.x/3.x), whose class methods are the same: the image rules are
/// richpush's `onesignal` profile (`RichPushRules.OneSignal`), the order of work is OneSignal's
/// (OneSignalExtension/OneSignalNotificationServiceExtensionHandler.m @ c9b5142c, with OneSignalAttachmentHandler.m @
/// 29ae9159):
///
/// 1. the content is `replacementContent`, else a mutable copy of the request's;
/// 2. `collapse_id` = the request's identifier, written into `userInfo`'s `os_data`, else `custom`;
/// 3. the badge: `badge_inc` adds to the count OneSignal keeps in the App Group (empty under richpush, a new container
///    for each notification, so the badge becomes the increment, at least 0);
/// 4. the confirmed-delivery receipt, recorded as what OneSignal would send (never sent);
/// 5. every attachment of `att` (`os_data.att`) downloaded in turn, **before** the content handler is called, then
///    `content.attachments` set to those that worked, replacing what the content had (an empty list too);
/// 6. the content handler, when one was passed, once.
///
/// OneSignal does all of it on the caller's thread and returns when it is done. Without a content handler (the
/// deprecated form, where the app delivers the returned content) so does this. With one, the call returns at once and
/// the rest follows on another thread: richpush calls `didReceive` and `serviceExtensionTimeWillExpire` on the main
/// thread, so a blocked main thread would keep the expiry from the extension, where `--sdk onesignal` (and an iOS
/// that calls the expiry on another thread; which thread it uses is not confirmed) lets the app deliver its content.
///
/// Not emulated: the action buttons (a category registered with `UNUserNotificationCenter`), a bundle file named by a
/// value that is not an http(s) URL, the Firebase analytics event.
package enum NotificationServiceExtensionHandler {
    static let loader = VendorAttachmentLoader(rules: RichPushRules.OneSignal())

    /// `didReceiveNotificationExtensionRequest:withMutableNotificationContent:(withContentHandler:)`.
    package static func didReceive(
        _ request: UNNotificationRequest, replacementContent: UNMutableNotificationContent?,
        contentHandler: ((UNNotificationContent) -> Void)?
    ) -> UNMutableNotificationContent {
        let content = replacementContent ?? mutableCopy(of: request)
        // Whose reports these are, found by the payload as it arrived (the collapse id below changes it).
        var loader = Self.loader
        loader.requestID = RichPushHostChannel.request(owning: request.content.userInfo)
        addCollapseID(request.identifier, to: content)
        applyBadgeIncrement(to: content)
        VendorChannel.recordWouldSend(loader.rules, for: content.userInfo, requestID: loader.requestID)
        guard let contentHandler else {
            let done = DispatchSemaphore(value: 0)
            addAttachments(to: content, loader: loader) { done.signal() }
            wait(for: done)
            return content
        }
        let handing = UncheckedDelivery(content: content, contentHandler: contentHandler)
        addAttachments(to: content, loader: loader) { handing.contentHandler?(handing.content) }
        return content
    }

    /// `serviceExtensionTimeWillExpireRequest:withMutableNotificationContent:`: the content as it is, nothing
    /// downloaded; the app calls its handler with it.
    package static func timeWillExpire(
        _ request: UNNotificationRequest, replacementContent: UNMutableNotificationContent?
    ) -> UNMutableNotificationContent {
        replacementContent ?? mutableCopy(of: request)
    }

    private static func mutableCopy(of request: UNNotificationRequest) -> UNMutableNotificationContent {
        request.content.mutableCopy() as? UNMutableNotificationContent ?? UNMutableNotificationContent()
    }

    /// `os_data` in OneSignal's newer payload format, `custom` in the original one.
    private static func addCollapseID(_ identifier: String, to content: UNMutableNotificationContent) {
        var userInfo = content.userInfo
        for key in ["os_data", "custom"] {
            guard var container = userInfo[key] as? [String: Any] else { continue }
            container["collapse_id"] = identifier
            userInfo[key] = container
            content.userInfo = userInfo
            return
        }
    }

    /// `badge_inc` (OSNotification.m @ 67f35f99, `parseCommonOneSignalFields:`), added to the count OneSignal keeps in
    /// the App Group (OneSignalExtensionBadgeHandler.m @ 974ae65a): none under richpush.
    private static func applyBadgeIncrement(to content: UNMutableNotificationContent) {
        let container =
            content.userInfo["os_data"] as? [String: Any] ?? content.userInfo["custom"] as? [String: Any]
        guard let increment = (container?["badge_inc"] as? NSNumber)?.intValue, increment != 0 else { return }
        content.badge = NSNumber(value: max(0, increment))
    }

    /// Loads every attachment of the payload in turn, sets `content.attachments` to those that worked (replacing what
    /// it had, with an empty list too), reports each failure, then calls `completion`, on the loader's queue, or at
    /// once when the payload names none.
    private static func addAttachments(
        to content: UNMutableNotificationContent, loader: VendorAttachmentLoader,
        completion: @escaping @Sendable () -> Void
    ) {
        guard !loader.rules.imageRequests(in: UserInfoNode(content.userInfo)).isEmpty else { return completion() }
        let target = UncheckedDelivery(content: content, contentHandler: nil)
        loader.load(for: content.userInfo) { attachments, failures in
            for failure in failures { VendorChannel.imageFailed(loader.rules, failure) }
            target.content.attachments = attachments
            completion()
        }
    }

    /// Waits for `semaphore`, as OneSignal's synchronous downloads do; on the main thread its run loop keeps turning
    /// meanwhile, as OneSignal's does.
    private static func wait(for semaphore: DispatchSemaphore) {
        while semaphore.wait(timeout: .now() + .milliseconds(10)) == .timedOut {
            if Thread.isMainThread {
                _ = RunLoop.current.run(mode: .default, before: Date(timeIntervalSinceNow: 0.05))
            }
        }
    }

    /// iOS's content and the app's handler, handed to the loader's queue; the caller touches the content no more
    /// until the handler has it.
    private struct UncheckedDelivery: @unchecked Sendable {
        let content: UNMutableNotificationContent
        let contentHandler: ((UNNotificationContent) -> Void)?
    }
}
