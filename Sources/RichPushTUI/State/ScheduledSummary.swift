import RichPushCore

/// A delivered Scheduled Summary, as iOS draws it: the notifications that waited for it, in
/// ``ScheduledSummaryRules``' order, the first one featured.
struct ScheduledSummary: Equatable, Sendable {
    /// The notifications it holds, in the order drawn; the first is featured.
    var ids: [Int]

    /// The summary of `entries`; their ids count in the order they arrived.
    init(_ entries: [NotificationEntry]) {
        ids = ScheduledSummaryRules.ordered(entries.sorted { $0.id < $1.id }, result: \.result).map(\.id)
    }

    /// The relevance score the notification is summarised by (none counts as 0).
    static func relevance(of entry: NotificationEntry) -> Double {
        entry.result.flatMap(ScheduledSummaryRules.relevance(of:)) ?? 0
    }

    /// Whether the notification came with a relevance score at all.
    static func hasScore(_ entry: NotificationEntry) -> Bool {
        entry.result.flatMap(ScheduledSummaryRules.relevance(of:)) != nil
    }
}
