import RichPushCore

/// One row of the notification center. Notifications of one group stack as on iOS (``NotificationEntry/stack``: a
/// thread-id, or the app's with grouping by app): a collapsed stack is one row showing its newest notification; an
/// expanded stack is one row per notification, together where its newest one would be. The others stay single.
struct NotificationRow: Equatable, Sendable {
    /// Where a row sits in a stack of notifications of one group.
    struct Stack: Equatable, Sendable {
        var group: NotificationGroup
        /// Notifications in the stack, this one included.
        var count: Int
        var isExpanded: Bool
        /// 0 for the newest notification of the stack.
        var position: Int

        var isLast: Bool { position == count - 1 }
    }

    /// The notification the row shows.
    var entry: NotificationEntry
    var stack: Stack?
    /// The notifications the row stands for: all of a collapsed stack, else just the one shown.
    var ids: [Int]

    var isCollapsedStack: Bool { stack.map { !$0.isExpanded } ?? false }

    /// The rows for `notifications` (newest first), with the stacks whose group is in `expanded` expanded.
    static func rows(
        of notifications: [NotificationEntry], expanded: Set<NotificationGroup>,
        grouping: DeviceState.Grouping = .automatic
    ) -> [NotificationRow] {
        var members: [NotificationGroup: [Int]] = [:]
        for (index, entry) in notifications.enumerated() {
            if let group = entry.stack(grouping: grouping) { members[group, default: []].append(index) }
        }
        var rows: [NotificationRow] = []
        rows.reserveCapacity(notifications.count)
        for (index, entry) in notifications.enumerated() {
            guard let group = entry.stack(grouping: grouping), let stack = members[group], stack.count > 1 else {
                rows.append(NotificationRow(entry: entry, ids: [entry.id]))
                continue
            }
            // The whole stack goes where its newest notification is.
            guard stack[0] == index else { continue }
            if expanded.contains(group) {
                for (position, member) in stack.enumerated() {
                    let shown = notifications[member]
                    rows.append(
                        NotificationRow(
                            entry: shown,
                            stack: Stack(group: group, count: stack.count, isExpanded: true, position: position),
                            ids: [shown.id]))
                }
            } else {
                rows.append(
                    NotificationRow(
                        entry: entry,
                        stack: Stack(group: group, count: stack.count, isExpanded: false, position: 0),
                        ids: stack.map { notifications[$0].id }))
            }
        }
        return rows
    }
}
