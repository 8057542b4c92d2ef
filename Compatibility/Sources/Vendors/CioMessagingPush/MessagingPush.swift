@_exported import Foundation
@_exported import UserNotifications
import CioInternalCommon
import RichPushRules
import RichPushVendorSupport

/// Customer.io's push module (Sources/MessagingPush/MessagingPush.swift at fc575b72, 4.4 – 4.7.5), as a Notification
/// Service Extension uses it: `initializeForExtension(withConfig:)` (usually through `MessagingPushAPN` or
/// `MessagingPushFCM`), then `MessagingPush.shared.didReceive(_:withContentHandler:)` and
/// `serviceExtensionTimeWillExpire()`. What it does with a push comes from the `customerio` SDK profile's rules
/// (`RichPushRules.CustomerIO`), which `--sdk customerio` reads too:
///
/// - never initialised: the content handler gets the content unchanged, and `didReceive` returns false;
/// - a push without `CIO-Delivery-ID` and `CIO-Delivery-Token` (strings) is not Customer.io's: `didReceive` returns
///   false and **calls no content handler** (the extension must);
/// - otherwise the "delivered" metric (when `autoTrackPushEvents`, the default) is recorded as "would send", never
///   sent, and `CIO.push.image` is downloaded (URLSession, 30 s for the whole download, no status, Content-Type or
///   size check), named `UUID_suggestedFilename`; the attachment replaces any the content had; on failure the
///   original content is delivered; the handler is called once;
/// - ``serviceExtensionTimeWillExpire()`` delivers each running notification's content now (with its image if it has
///   one already, else the original), once.
///
/// Logs go to standard output at the configured level (`.error` by default), with Customer.io's words.
public class MessagingPush: MessagingPushInstance, @unchecked Sendable {
    // @unchecked: the configuration and the running notifications are read and written under `lock`.
    public static let shared = MessagingPush()

    private let lock = NSLock()
    private var config: MessagingPushConfigOptions?
    private var running: [CustomerIONotification] = []

    private init() {}

    /// The configuration `initializeForExtension` was given (the builder's defaults before).
    public static var moduleConfig: MessagingPushConfigOptions {
        shared.lock.lock()
        defer { shared.lock.unlock() }
        return shared.config ?? MessagingPushConfigBuilder().build()
    }

    /// Initialises the module for an extension, once: later calls keep the first configuration, as Customer.io's
    /// `initializeModuleIfNotAlready`.
    @discardableResult
    public static func initializeForExtension(withConfig config: MessagingPushConfigOptions) -> MessagingPushInstance {
        shared.lock.lock()
        defer { shared.lock.unlock() }
        if shared.config == nil { shared.config = config }
        return shared
    }

    /// A device token is the app's business: an extension has none to register.
    public func registerDeviceToken(_ deviceToken: String) {}
    public func deleteDeviceToken() {}
    /// The app reports opened and converted metrics; richpush records nothing for them.
    public func trackMetric(deliveryID: String, event: Metric, deviceToken: String) {}

    /// Handles a Customer.io push and returns true; returns false for any other push, without calling
    /// `contentHandler`.
    @discardableResult
    public func didReceive(
        _ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
    ) -> Bool {
        lock.lock()
        let config = self.config
        lock.unlock()
        guard let config else {
            contentHandler(request.content)
            return false
        }
        let log = CustomerIOLog(level: config.logLevel)
        let rules = CustomerIO(region: config.region.rawValue, autoTrackPushEvents: config.autoTrackPushEvents)
        let userInfo = request.content.userInfo
        log.debug("Received notification for message: \(request.identifier)")
        guard let delivery = rules.delivery(in: UserInfoNode(userInfo)) else {
            log.debug("Received non CIO push message, ignoring message")
            return false
        }
        log.debug("Received CIO push message")
        if config.autoTrackPushEvents {
            log.debug("Tracking push message delivered with deliveryId: \(delivery.id)")
        } else {
            log.debug("Received message but auto tracking is disabled")
        }
        let notification = CustomerIONotification(original: request.content, handler: contentHandler)
        lock.lock()
        running.append(notification)
        lock.unlock()
        let best = request.content.mutableCopy() as? UNMutableNotificationContent ?? UNMutableNotificationContent()
        let wantsImage = !rules.imageRequests(in: UserInfoNode(userInfo)).isEmpty
        VendorAttachmentLoader(rules: rules).populate(best, replacingAttachments: true) { content in
            // Without the image the content is the original's copy, unchanged.
            if wantsImage, content.attachments.isEmpty { log.error("Rich push processing failed.") }
            notification.finish(with: content)
            self.remove(notification)
        }
        return true
    }

    /// Delivers every running notification's content now, once each.
    public func serviceExtensionTimeWillExpire() {
        lock.lock()
        let level = config?.logLevel ?? .error
        let expiring = running
        running = []
        lock.unlock()
        CustomerIOLog(level: level).info(
            "notification service time will expire. Stopping all notification requests early.")
        for notification in expiring { notification.cancel() }
    }

    private func remove(_ notification: CustomerIONotification) {
        lock.lock()
        defer { lock.unlock() }
        running.removeAll { $0 === notification }
    }
}
