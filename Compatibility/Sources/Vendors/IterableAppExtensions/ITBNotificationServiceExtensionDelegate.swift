import UserNotifications

/// Hands the pushes Iterable does not own to another SDK: with a delegate set, a push without a top-level `itbl` key
/// goes to it untouched, and the delegate must call the content handler (IterableAppExtensions 6.4.13 and later).
public protocol ITBNotificationServiceExtensionDelegate {
    func notificationServiceDidReceive(
        _ request: UNNotificationRequest, bestAttemptContent: UNMutableNotificationContent,
        contentHandler: @escaping (UNNotificationContent) -> Void)
}
