import UserNotifications

/// A service extension with two mistakes that only show when iOS hands one process more than one notification
/// (`--extension-process`); written for richpush to show what that finds, not to copy.
///
/// - The content handler lives in a static property: a notification that arrives while another waits takes over its
///   handler, so the first one is never delivered and the second one's handler is called twice (`concurrent`).
/// - The content is made once per process and kept "to save work", a cache keyed by nothing: a process's later
///   notifications show the first one's text (`reuse`, `same-instance`, `concurrent`).
///
/// A process per notification (`each`) hides both: every notification shows its own title.
class NotificationService: UNNotificationServiceExtension {
    static var contentHandler: ((UNNotificationContent) -> Void)?
    static var bestAttemptContent: UNMutableNotificationContent?

    override func didReceive(
        _ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
    ) {
        Self.contentHandler = contentHandler
        if Self.bestAttemptContent == nil {
            Self.bestAttemptContent = request.content.mutableCopy() as? UNMutableNotificationContent
        }
        // The content is finished half a second later, as after a download.
        DispatchQueue.main.asyncAfter(deadline: .now() + 0.5) {
            guard let content = Self.bestAttemptContent else { return }
            content.subtitle = "Finished by the extension"
            Self.contentHandler?(content)
        }
    }

    override func serviceExtensionTimeWillExpire() {
        if let content = Self.bestAttemptContent { Self.contentHandler?(content) }
    }
}
