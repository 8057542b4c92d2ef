import UserNotifications

/// The two steps of Iterable's extension (the category and the attachment) and its content handler, reached from the
/// main queue and the download's thread: Iterable's `getCategoryIdFinished` / `attachmentRetrievalFinished` flags,
/// whose every change checks whether both are done.
final class IterableSteps: @unchecked Sendable {
    // @unchecked: every access to the stored properties holds `lock`; the handler is called outside it.
    private let lock = NSLock()
    private var handler: ((UNNotificationContent) -> Void)?
    private var best: UNMutableNotificationContent?
    private var categoryFinished = false
    private var attachmentFinished = false
    /// A download is running whose end still counts (not cancelled by the expiry).
    private var downloading = false

    func start(_ content: UNMutableNotificationContent, handler: @escaping (UNNotificationContent) -> Void) {
        lock.lock()
        defer { lock.unlock() }
        best = content
        self.handler = handler
    }

    func downloadStarted() {
        lock.lock()
        defer { lock.unlock() }
        downloading = true
    }

    func categoryDone() {
        set { $0.categoryFinished = true }
    }

    func attachmentDone() {
        set { $0.attachmentFinished = true }
    }

    /// The download's failure: the step is done, unless the expiry cancelled the download already.
    func downloadFailed() {
        lock.lock()
        let counts = downloading
        downloading = false
        lock.unlock()
        if counts { attachmentDone() }
    }

    /// `content.attachments.append(attachment)` and the handler, at once.
    func attached(_ attachment: UNNotificationAttachment) {
        lock.lock()
        guard downloading else { return lock.unlock() }
        downloading = false
        best?.attachments.append(attachment)
        lock.unlock()
        deliver()
    }

    /// The best attempt now; the cancelled download ends as a failure, which marks its step done.
    func expire() {
        lock.lock()
        let cancelled = downloading
        downloading = false
        lock.unlock()
        deliver()
        if cancelled { attachmentDone() }
    }

    private func set(_ change: (IterableSteps) -> Void) {
        lock.lock()
        change(self)
        let both = categoryFinished && attachmentFinished
        lock.unlock()
        if both { deliver() }
    }

    private func deliver() {
        lock.lock()
        let (handler, best) = (self.handler, self.best)
        lock.unlock()
        if let handler, let best { handler(best) }
    }
}
