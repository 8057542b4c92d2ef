import Synchronization

/// What the phone remembers between notifications: how many each thread has had (a hidden preview's `%u`), and the
/// app icon's badge.
/// One per notification system, so per run; notifications presented at the same time are counted in the order
/// they were presented.
public final class PhoneLedger: Sendable {
    private let threads = Mutex<[String: Int]>([:])
    private let badge = Mutex(0)

    public init() {}

    /// Counts one more notification in `thread` (the empty thread is the app's own) and returns the count.
    public func present(inThread thread: String) -> Int {
        threads.withLock { counts in
            counts[thread, default: 0] += 1
            return counts[thread, default: 0]
        }
    }

    /// The badge the app icon shows now.
    public var currentBadge: Int { badge.withLock { $0 } }

    /// The badge after a notification: `aps.badge` sets it (0 clears it), no badge leaves it
    /// (https://developer.apple.com/documentation/usernotifications/unnotificationcontent/badge).
    public func setBadge(_ value: Int) {
        badge.withLock { $0 = value }
    }
}
