import RichPushCore

/// A delivered Scheduled Summary, as iOS draws it: the notifications that waited for it, ordered by relevance
/// (`relevance-score`, highest first; ties by arrival, the earlier first), the first one featured.
struct ScheduledSummary: Equatable, Sendable {
    /// The notifications it holds, in the order drawn; the first is featured.
    var ids: [Int]

    /// The summary of `entries`, ordered by relevance.
    init(_ entries: [NotificationEntry]) {
        ids = Self.ordered(entries).map(\.id)
    }

    /// Highest relevance first (no score counts as 0, as `UNNotificationContent.relevanceScore`'s default); entries of
    /// the same score in the order they arrived.
    static func ordered(_ entries: [NotificationEntry]) -> [NotificationEntry] {
        entries.sorted { left, right in
            let (a, b) = (relevance(of: left), relevance(of: right))
            return a != b ? a > b : left.id < right.id
        }
    }

    /// The relevance score the notification was delivered with: the extension's content's, else the payload's.
    static func relevance(of entry: NotificationEntry) -> Double {
        entry.result?.deliveredContent?.content.relevanceScore ?? entry.result?.relevanceScore ?? 0
    }

    /// Whether the notification came with a relevance score at all.
    static func hasScore(_ entry: NotificationEntry) -> Bool {
        entry.result?.deliveredContent?.content.relevanceScore != nil || entry.result?.relevanceScore != nil
    }
}
