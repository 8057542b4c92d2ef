import NotificareNotificationServiceExtensionKit
import UserNotifications

// Notificare's extension as its sample app writes it: the kit's one call fetches `attachment.uri` (the shared
// URLSession, 60 s), names the file after the URL's last path component and passes the response's MIME type as the
// type hint, so an image served as application/octet-stream is refused even when its URL ends in .jpg. On failure
// the original content is shown; the time-out hook is left empty, so iOS shows the original content at 30 s.
class NotificationService: UNNotificationServiceExtension {
    override func didReceive(
        _ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
    ) {
        NotificareNotificationServiceExtension.handleNotificationRequest(request) { result in
            switch result {
            case let .success(content):
                contentHandler(content)
            case let .failure(error):
                print("Failed to handle the notification request: \(error)")
                contentHandler(request.content)
            }
        }
    }

    override func serviceExtensionTimeWillExpire() {
        // Called just before the extension is terminated by the system.
    }
}
