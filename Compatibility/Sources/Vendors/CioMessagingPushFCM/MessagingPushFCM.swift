@_exported import Foundation
@_exported import UserNotifications
import CioInternalCommon
import CioMessagingPush

/// The FCM flavour of Customer.io's push module (Sources/MessagingPushFCM/MessagingPushFCM.swift at 361964ed): for
/// an extension, ``initializeForExtension(withConfig:)``; the rest forwards to `MessagingPush.shared`, whose
/// behaviour is the `customerio` SDK profile's.
public protocol MessagingPushFCMInstance: AnyObject {
    func registerDeviceToken(fcmToken: String?)
    func messaging(_ messaging: Any, didReceiveRegistrationToken fcmToken: String?)
    func application(_ application: Any, didFailToRegisterForRemoteNotificationsWithError error: any Error)
    func deleteDeviceToken()
    func trackMetric(deliveryID: String, event: Metric, deviceToken: String)
    @discardableResult
    func didReceive(
        _ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
    ) -> Bool
    func serviceExtensionTimeWillExpire()
}

public class MessagingPushFCM: MessagingPushFCMInstance, @unchecked Sendable {
    // @unchecked: no state of its own; everything is `MessagingPush.shared`'s.
    static let shared = MessagingPushFCM()

    /// Initialises `MessagingPush` for the extension and returns it.
    @discardableResult
    public static func initializeForExtension(withConfig config: MessagingPushConfigOptions) -> MessagingPushInstance {
        MessagingPush.initializeForExtension(withConfig: config)
    }

    public func registerDeviceToken(fcmToken: String?) {
        if let fcmToken { MessagingPush.shared.registerDeviceToken(fcmToken) }
    }

    public func messaging(_ messaging: Any, didReceiveRegistrationToken fcmToken: String?) {
        registerDeviceToken(fcmToken: fcmToken)
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
