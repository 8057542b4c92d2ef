// MoEngage's extension as MoEngage's sample app shapes it: the App Group is set, the handler and a best attempt are
// kept, and MoEngageSDKRichNotification handles the push, downloading `moengage.media-attachment` and tracking the
// impression before it calls the handler; when the time runs out the best attempt (the original content) is delivered.
// Under richpush the image follows the `moengage` SDK profile's rules, so this ends as `richpush --sdk moengage` does;
// the impression is recorded in the timeline as "would send" and never sent.
import MoEngageRichNotification
import UserNotifications

class NotificationService: UNNotificationServiceExtension {
    var contentHandler: ((UNNotificationContent) -> Void)?
    var bestAttemptContent: UNMutableNotificationContent?

    override func didReceive(
        _ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
    ) {
        MoEngageSDKRichNotification.setAppGroupID("group.test.richpush.example.moengage")
        self.contentHandler = contentHandler
        bestAttemptContent = request.content.mutableCopy() as? UNMutableNotificationContent
        MoEngageSDKRichNotification.handle(richNotificationRequest: request, withContentHandler: contentHandler)
    }

    override func serviceExtensionTimeWillExpire() {
        if let contentHandler = contentHandler, let bestAttemptContent = bestAttemptContent {
            contentHandler(bestAttemptContent)
        }
    }
}
