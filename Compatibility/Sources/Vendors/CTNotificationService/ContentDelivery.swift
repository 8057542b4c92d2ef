import UserNotifications

/// The handler and the best attempt of one notification, reached from the download's thread and the main thread.
/// Each ``deliver()`` calls the handler, as CleverTap's `self.contentHandler(self.bestAttemptContent)` does each time.
final class ContentDelivery: @unchecked Sendable {
    // @unchecked: every access to the stored properties holds `lock`; the handler is called outside it.
    private let lock = NSLock()
    private var handler: ((UNNotificationContent) -> Void)?
    private var best: UNMutableNotificationContent?

    func start(_ content: UNMutableNotificationContent, handler: @escaping (UNNotificationContent) -> Void) {
        lock.lock()
        defer { lock.unlock() }
        best = content
        self.handler = handler
    }

    /// `bestAttemptContent.attachments = [attachment]`.
    func attach(_ attachment: UNNotificationAttachment) {
        lock.lock()
        defer { lock.unlock() }
        best?.attachments = [attachment]
    }

    func deliver() {
        lock.lock()
        let (handler, best) = (self.handler, self.best)
        lock.unlock()
        if let handler, let best { handler(best) }
    }
}
