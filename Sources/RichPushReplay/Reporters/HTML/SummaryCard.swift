import RichPushCore

/// The Scheduled Summary as a card of its own: the notifications the phone held for it (delivery
/// `scheduledSummary`), in ``ScheduledSummaryRules``' order (ties in report order), the highest featured first and
/// larger, as iOS draws the summary. Each links to its own card.
struct SummaryCard {
    /// The members: card index and result, in the summary's order.
    var members: [(index: Int, result: DeliveryResult)]

    /// The summary of `items`; nil when none waits for it.
    init?(_ items: [ReplayItem]) {
        let held = items.enumerated().compactMap { index, item -> (index: Int, result: DeliveryResult)? in
            guard let result = item.result, result.presentation?.delivery?.kind == .scheduledSummary else {
                return nil
            }
            return (index, result)
        }
        guard !held.isEmpty else { return nil }
        members = ScheduledSummaryRules.ordered(held, result: \.result)
    }

    var html: String {
        var html = "<section class=\"ss-card\" id=\"scheduled-summary\" aria-label=\"Scheduled Summary\">\n"
        html += "<h2>Scheduled Summary</h2>\n"
        html +=
            "<p class=\"ss-about\">\(members.count) notification\(members.count == 1 ? "" : "s") held for the next summary, "
            + "by relevance-score (highest first); the highest is featured.</p>\n<ol class=\"ss-list\">\n"
        for (position, member) in members.enumerated() {
            let featured = position == 0
            html += "<li class=\"ss-item\(featured ? " featured" : "")\" data-card=\"n\(member.index)\">"
            if featured { html += "<span class=\"ss-mark\">Featured</span>" }
            html +=
                "<a href=\"#n\(member.index)\"><bdi>\(HTMLReporter.escape(ScheduledSummaryRules.label(of: member.result)))</bdi></a>"
            // The text is the lock screen's (a hidden preview's placeholder): the file tells them apart.
            html += "<span class=\"ss-file\"><bdi>\(HTMLReporter.escape(member.result.file))</bdi></span>"
            let score =
                ScheduledSummaryRules.relevance(of: member.result).map { "relevance \($0)" } ?? "no relevance-score"
            html += "<span class=\"ss-score\">\(HTMLReporter.escape(score))</span></li>\n"
        }
        return html + "</ol>\n</section>\n"
    }
}
