import RichPushCore

/// Notifications of one thread (`aps.thread-id`) as the lock screen groups them: the first on top, the others as
/// sheets under it, "N more", and a link to each one's own card.
struct ThreadStack {
    /// The thread's members: the card index and the result of each, in report order.
    var members: [(index: Int, result: DeliveryResult)]

    /// The threads with more than one notification drawn, by the card index of each thread's first member.
    static func threads(_ items: [ReplayItem]) -> [Int: ThreadStack] {
        var byThread: [String: [(index: Int, result: DeliveryResult)]] = [:]
        var order: [String] = []
        for (index, item) in items.enumerated() {
            guard let result = item.result, result.presentation != nil, let thread = result.threadID,
                !thread.isEmpty
            else { continue }
            if byThread[thread] == nil { order.append(thread) }
            byThread[thread, default: []].append((index, result))
        }
        var stacks: [Int: ThreadStack] = [:]
        for thread in order {
            guard let members = byThread[thread], members.count > 1, let first = members.first else { continue }
            stacks[first.index] = ThreadStack(members: members)
        }
        return stacks
    }

    /// The stack; `top` is the first member's lock screen view, drawn by its card's media.
    func html(top: String) -> String {
        guard let first = members.first else { return "" }
        let thread = HTMLReporter.escape(first.result.threadID ?? "")
        let more = members.count - 1
        var html = "<section class=\"thread-stack\" aria-label=\"Thread \(thread): \(members.count) notifications\">\n"
        html +=
            "<p class=\"ts-label\">Thread <bdi>\(thread)</bdi> on the lock screen: \(members.count) notifications</p>\n"
        html += "<div class=\"ts-stack\">\n\(top)"
        html += "<div class=\"ts-sheet s1\" aria-hidden=\"true\"></div>"
        if more > 1 { html += "<div class=\"ts-sheet s2\" aria-hidden=\"true\"></div>" }
        html +=
            "\n</div>\n<p class=\"ts-more\"><a href=\"#n\(first.index)\">\(more) more</a></p>\n<ol class=\"ts-list\">"
        for member in members {
            let title = member.result.content.title.isEmpty ? member.result.file : member.result.content.title
            html += "<li><a href=\"#n\(member.index)\"><bdi>\(HTMLReporter.escape(title))</bdi></a></li>"
        }
        return html + "</ol>\n</section>\n"
    }
}
