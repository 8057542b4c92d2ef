@_exported import Foundation
@_exported import UserNotifications
import CioInternalCommon
import CioMessagingPush

/// The APNs flavour of Customer.io's push module (Sources/MessagingPushAPN/MessagingPushAPN.swift at f5674b5e): for
/// an extension, ``initializeForExtension(withConfig:)``; the rest forwards to `MessagingPush.shared`, whose
/// behaviour is the `customerio` SDK profile's.
public protocol MessagingPushAPNInstance: AnyObject {
    func registerDeviceToken(apnDeviceToken: Data)
    func application(_ application: Any, didRegisterForRemoteNotificationsWithDeviceToken deviceToken: Data)
    func application(_ application: Any, didFailToRegisterForRemoteNotificationsWithError error: any Error)
    func deleteDeviceToken()
    func trackMetric(deliveryID: String, event: Metric, deviceToken: String)
    @discardableResult
    func didReceive(
        _ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
    ) -> Bool
    func serviceExtensionTimeWillExpire()
}

public class MessagingPushAPN: MessagingPushAPNInstance, @unchecked Sendable {
    // @unchecked: no state of its own; everything is `MessagingPush.shared`'s.
    static let shared = MessagingPushAPN()

    /// Initialises `MessagingPush` for the extension and returns it.
    @discardableResult
    public static func initializeForExtension(withConfig config: MessagingPushConfigOptions) -> MessagingPushInstance {
        MessagingPush.initializeForExtension(withConfig: config)
    }

    public func registerDeviceToken(apnDeviceToken: Data) {
        MessagingPush.shared.registerDeviceToken(apnDeviceToken.map { String(format: "%02x", $0) }.joined())
    }

    public func application(_ application: Any, didRegisterForRemoteNotificationsWithDeviceToken deviceToken: Data) {
        registerDeviceToken(apnDeviceToken: deviceToken)
    }

    public func application(_ application: Any, didFailToRegisterForRemoteNotificationsWithError error: any Error) {
        MessagingPush.shared.deleteDeviceToken()
    }

    public func deleteDeviceToken() { MessagingPush.shared.deleteDeviceToken() }

    public func trackMetric(deliveryID: String, event: Metric, deviceToken: String) {
        MessagingPush.shared.trackMetric(deliveryID: deliveryID, event: event, deviceToken: deviceToken)
    }

    @discardableResult
    public func didReceive(
        _ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
    ) -> Bool {
        MessagingPush.shared.didReceive(request, withContentHandler: contentHandler)
    }

    public func serviceExtensionTimeWillExpire() { MessagingPush.shared.serviceExtensionTimeWillExpire() }
}
