import RichPushCore

/// The delivered Scheduled Summary, in a box over the screen as iOS shows it: the notifications that waited for it,
/// by relevance, the highest featured first (★) with its text, the others a line each.
struct SummaryView {
    var summary: ScheduledSummary
    var state: TUIState

    func draw(in body: Rect, on grid: inout CellGrid) {
        let entries = summary.ids.compactMap { id in state.notifications.first { $0.id == id } }
        let width = min(body.width - 2, 90)
        let inner = width - 4
        guard inner >= 20 else { return }
        var lines: [StyledLine] = []
        for (index, entry) in entries.enumerated() {
            let (title, subtitle) = NotificationSummary.headline(of: entry)
            let headline = [title, subtitle].filter { !$0.isEmpty }.joined(separator: " — ")
            let shown = headline.isEmpty ? TextSanitizer.singleLine(entry.file) : headline
            let score =
                ScheduledSummary.hasScore(entry)
                ? "relevance \(Format.fixed(ScheduledSummary.relevance(of: entry), 2))" : "no relevance-score"
            if index == 0 {
                lines.append(StyledLine(TextLayout.truncate("★ " + shown, toWidth: inner), .bold))
                let text = TextSanitizer.singleLine(entry.content.body)
                for line in TextLayout.wrap(text, width: inner - 2).prefix(2) { lines.append(StyledLine("  " + line)) }
                lines.append(
                    StyledLine(TextLayout.truncate("  featured · \(score) · \(entry.file)", toWidth: inner), .muted))
                if entries.count > 1 { lines.append(StyledLine("")) }
            } else {
                lines.append(
                    StyledLine(TextLayout.truncate("· \(shown) · \(score) · \(entry.file)", toWidth: inner), .plain))
            }
        }
        if entries.isEmpty { lines.append(StyledLine("(its notifications were deleted)", .muted)) }
        let height = min(body.height, lines.count + 4)
        let rect = body.centered(width: width, height: height)
        grid.fill(rect)
        let count = entries.count
        grid.box(
            rect, title: "Scheduled Summary · \(count) notification\(count == 1 ? "" : "s") · Esc to close",
            style: CellStyle(color: .accent, bold: true))
        let inside = rect.inset(by: 1)
        for (offset, line) in lines.prefix(max(0, inside.height - 2)).enumerated() {
            grid.write(
                line.text, row: inside.row + 1 + offset, column: inside.column + 1, maxWidth: inside.width - 2,
                style: CellStyle(line.style))
        }
    }
}
