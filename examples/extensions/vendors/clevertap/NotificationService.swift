// CleverTap's extension as its starter apps shape it: a subclass of CTNotificationServiceExtension that turns on
// CleverTap's logging, records the "Notification Viewed" impression through CleverTapSDK, then lets the base class
// download `ct_mediaUrl` (typed by `ct_mediaType`) and attach it. Under richpush the image follows the `clevertap` SDK
// profile's rules, so this ends as `richpush --sdk clevertap` does; the impression (a handshake with clevertap-prod.com,
// then the event a second later) is recorded in the timeline as "would send" and never sent.
import CTNotificationService
import CleverTapSDK
import UserNotifications

class NotificationService: CTNotificationServiceExtension {
    override func didReceive(
        _ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
    ) {
        CleverTap.setDebugLevel(CleverTapLogLevel.debug.rawValue)
        CleverTap.sharedInstance()?.recordNotificationViewedEvent(withData: request.content.userInfo)
        super.didReceive(request, withContentHandler: contentHandler)
    }
}
