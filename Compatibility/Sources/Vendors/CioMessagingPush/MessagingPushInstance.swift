import CioInternalCommon
import UserNotifications

/// What every push module answers (Sources/MessagingPush/MessagingPushInstance.swift): ``MessagingPush``, and what
/// `initializeForExtension(withConfig:)` returns.
public protocol MessagingPushInstance: AnyObject {
    func registerDeviceToken(_ deviceToken: String)
    func deleteDeviceToken()
    func trackMetric(deliveryID: String, event: Metric, deviceToken: String)
    @discardableResult
    func didReceive(
        _ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
    ) -> Bool
    func serviceExtensionTimeWillExpire()
}
