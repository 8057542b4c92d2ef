import UserNotifications

/// A chat app's Notification Service Extension, written for richpush's examples in the shape of Xcode's template and
/// Apple's `UNUserNotificationCenter` pages: one notification per conversation. A new message looks up the delivered
/// notifications of its thread (`getDeliveredNotifications(completionHandler:)`), removes the older ones
/// (`removeDeliveredNotifications(withIdentifiers:)`), and sets the app's badge to the number of conversations with unread messages (`setBadgeCount(_:withCompletionHandler:)`, iOS 16)
/// before it hands the content over.
class NotificationService: UNNotificationServiceExtension {
    var contentHandler: ((UNNotificationContent) -> Void)?
    var bestAttemptContent: UNMutableNotificationContent?

    override func didReceive(
        _ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
    ) {
        self.contentHandler = contentHandler
        bestAttemptContent = (request.content.mutableCopy() as? UNMutableNotificationContent)
        guard let bestAttemptContent = bestAttemptContent else {
            contentHandler(request.content)
            return
        }
        let thread = bestAttemptContent.threadIdentifier
        let center = UNUserNotificationCenter.current()
        center.getDeliveredNotifications { delivered in
            let older = delivered.filter { $0.request.content.threadIdentifier == thread }
            if !older.isEmpty {
                center.removeDeliveredNotifications(withIdentifiers: older.map { $0.request.identifier })
            }
            let otherConversations = Set(
                delivered.map { $0.request.content.threadIdentifier }.filter { $0 != thread })
            center.setBadgeCount(otherConversations.count + 1) { _ in
                contentHandler(bestAttemptContent)
            }
        }
    }

    override func serviceExtensionTimeWillExpire() {
        if let contentHandler = contentHandler, let bestAttemptContent = bestAttemptContent {
            contentHandler(bestAttemptContent)
        }
    }
}
