/// The expanded notification, scrollable, in a box over the whole body of the screen.
struct DetailView {
    var entry: NotificationEntry
    var state: TUIState

    func draw(in rect: Rect, layout: ScreenLayout, on grid: inout CellGrid) {
        let frame = CellStyle(color: .accent, bold: true)
        grid.box(rect, title: "Notification detail · Esc back", style: frame)
        let text = layout.detailText
        guard !text.isEmpty else { return }
        let content = DetailContent(
            entry: entry, configuredLimits: state.configuredLimits, timeOfDay: state.startTimeOfDay, now: state.now)
        let lines = content.lines(width: text.width)
        let scroll = max(0, min(state.detailScroll, lines.count - text.height))
        for (offset, line) in lines.dropFirst(scroll).prefix(text.height).enumerated() {
            grid.write(
                line.text, row: text.row + offset, column: text.column, maxWidth: text.width,
                style: CellStyle(line.style))
        }
        if lines.count > text.height {
            let last = min(lines.count, scroll + text.height)
            let position = " lines \(scroll + 1)-\(last) of \(lines.count) · Up/Down scroll "
            grid.write(
                position, row: rect.maxRow - 1,
                column: max(rect.column + 2, rect.maxColumn - 2 - TextWidth.of(position)),
                maxWidth: rect.width - 4, style: frame)
        }
    }
}
