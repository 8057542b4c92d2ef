import UserNotifications

/// One notification Customer.io is handling: its original content, the content with the image once there is one, and
/// the handler, called once (`NSEPushCoordinatorState`, Sources/MessagingPush/PushHandling at 2d6379d3).
final class CustomerIONotification: @unchecked Sendable {
    // @unchecked: every access to the stored properties holds `lock`; the handler is called outside it.
    private let lock = NSLock()
    private let original: UNNotificationContent
    private var handler: ((UNNotificationContent) -> Void)?

    init(original: UNNotificationContent, handler: @escaping (UNNotificationContent) -> Void) {
        self.original = original
        self.handler = handler
    }

    /// The rich push step's end: `content` is delivered, unless the expiry delivered already.
    func finish(with content: UNNotificationContent) {
        take()?(content)
    }

    /// The expiry: the original content, the image step not having finished.
    func cancel() {
        take()?(original)
    }

    private func take() -> ((UNNotificationContent) -> Void)? {
        lock.lock()
        defer { lock.unlock() }
        let taken = handler
        handler = nil
        return taken
    }
}
