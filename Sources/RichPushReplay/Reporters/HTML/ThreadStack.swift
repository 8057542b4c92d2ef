import RichPushCore

/// Notifications of one group (a `thread-id`, or the app's with grouping by app) as the lock screen stacks them: the
/// first on top, the others as sheets under it, "N more", and a link to each one's own card. With the lock screen's
/// Display As set to count, the stack is drawn as the count iOS shows instead.
struct ThreadStack {
    var group: NotificationGroup
    /// The group's members: the card index and the result of each, in report order.
    var members: [(index: Int, result: DeliveryResult)]

    /// The groups with more than one notification drawn (``NotificationPresentation/drawnStack``), by the card index
    /// of each group's first member.
    static func threads(_ items: [ReplayItem]) -> [Int: ThreadStack] {
        var byGroup: [NotificationGroup: [(index: Int, result: DeliveryResult)]] = [:]
        var order: [NotificationGroup] = []
        for (index, item) in items.enumerated() {
            guard let result = item.result, let group = result.presentation?.drawnStack else { continue }
            if byGroup[group] == nil { order.append(group) }
            byGroup[group, default: []].append((index, result))
        }
        var stacks: [Int: ThreadStack] = [:]
        for group in order {
            guard let members = byGroup[group], members.count > 1, let first = members.first else { continue }
            stacks[first.index] = ThreadStack(group: group, members: members)
        }
        return stacks
    }

    /// The stack; `top` is the first member's lock screen view, drawn by its card's media.
    func html(top: String) -> String {
        guard let first = members.first else { return "" }
        let name: String
        switch group {
        case .thread(let thread): name = "Thread <bdi>\(HTMLReporter.escape(thread))</bdi>"
        case .app: name = "The app's notifications (grouped by app)"
        }
        let more = members.count - 1
        var html =
            "<section class=\"thread-stack\" aria-label=\"\(HTMLReporter.escape(group.label)): \(members.count) notifications\">\n"
        html += "<p class=\"ts-label\">\(name) on the lock screen: \(members.count) notifications</p>\n"
        // Settings › Notifications › Display As: the lock screen shows a count, the stack, or every one in full.
        switch first.result.presentation?.lockScreenDisplay ?? .stack {
        case .count:
            html += "<p class=\"ts-count\">\(GroupingRules.lockScreenSentence(.count, count: members.count))</p>\n"
        case .list:
            html += "<div class=\"ts-stack ts-open\">\n\(top)\n</div>\n"
        case .stack:
            html += "<div class=\"ts-stack\">\n\(top)"
            html += "<div class=\"ts-sheet s1\" aria-hidden=\"true\"></div>"
            if more > 1 { html += "<div class=\"ts-sheet s2\" aria-hidden=\"true\"></div>" }
            html += "\n</div>\n<p class=\"ts-more\"><a href=\"#n\(first.index)\">\(more) more</a></p>\n"
        }
        html += "<ol class=\"ts-list\">"
        for member in members {
            let title = member.result.content.title.isEmpty ? member.result.file : member.result.content.title
            html += "<li><a href=\"#n\(member.index)\"><bdi>\(HTMLReporter.escape(title))</bdi></a></li>"
        }
        return html + "</ol>\n</section>\n"
    }
}
