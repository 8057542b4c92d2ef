import UserNotifications

/// How a message notification looks, shared by the app (for local notifications) and the service extension:
/// messages of one room are grouped in one thread, and a notification always has a title.
enum NotificationStyle {
    static let threadPrefix = "room."
    static let fallbackTitle = "SyncedApp"

    static func apply(to content: UNMutableNotificationContent) {
        if let room = content.userInfo["room"] as? String {
            content.threadIdentifier = threadPrefix + room
        }
        if content.title.isEmpty {
            content.title = fallbackTitle
        }
    }
}
