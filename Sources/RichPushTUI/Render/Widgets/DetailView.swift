import RichPushCore
import RichPushGraphics

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
        // The image comes first, as iOS shows it on top of the expanded notification, and scrolls with the text.
        let imageRows = ImageLayout.detailRows(of: entry, state: state)
        let total = imageRows + lines.count
        let scroll = max(0, min(state.detailScroll, total - text.height))
        if imageRows > 0 { drawImage(in: text, scroll: scroll, rows: imageRows, on: &grid) }
        for (offset, line) in lines.dropFirst(max(0, scroll - imageRows)).prefix(text.height).enumerated() {
            let row = text.row + max(0, imageRows - scroll) + offset
            guard row < text.maxRow else { break }
            grid.write(line.text, row: row, column: text.column, maxWidth: text.width, style: CellStyle(line.style))
        }
        if total > text.height {
            let last = min(total, scroll + text.height)
            let position = " lines \(scroll + 1)-\(last) of \(total) · Up/Down scroll "
            grid.write(
                position, row: rect.maxRow - 1,
                column: max(rect.column + 2, rect.maxColumn - 2 - TextWidth.of(position)),
                maxWidth: rect.width - 4, style: frame)
        }
    }

    /// The image, centred, from its row `scroll` on (the rows above are scrolled away); a still frame
    /// while paused. An image that cannot be drawn says why on its line.
    private func drawImage(in text: Rect, scroll: Int, rows: Int, on grid: inout CellGrid) {
        guard scroll < rows, let key = ImageLayout.detailKey(of: entry, text: text) else { return }
        switch state.renderedImages[key] {
        case .failed(let reason):
            guard scroll == 0 else { return }
            grid.write(
                "Image not drawn: \(TextSanitizer.singleLine(reason))", row: text.row, column: text.column,
                maxWidth: text.width, style: .muted)
        case .some(let image):
            guard let frame = image.frame(at: state.animation.elapsed(at: state.now)), scroll < frame.rows else {
                return
            }
            grid.draw(
                frame, row: text.row, column: text.column + (text.width - frame.columns) / 2,
                rows: scroll..<frame.rows, clip: text)
        case .none:
            guard scroll == 0 else { return }
            grid.write("Drawing the image…", row: text.row, column: text.column, maxWidth: text.width, style: .muted)
        }
    }
}
