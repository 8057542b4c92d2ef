import RichPushCore
import RichPushGraphics

/// The expanded notification, scrollable, in a box over the whole body of the screen: the phone's card of it in
/// the chosen view when the phone shows it, else its text; then the delivery's facts.
struct DetailView {
    var entry: NotificationEntry
    var state: TUIState

    func draw(in rect: Rect, layout: ScreenLayout, on grid: inout CellGrid) {
        let frame = CellStyle(color: .accent, bold: true)
        grid.box(rect, title: "Notification detail · Esc back", style: frame)
        let text = layout.detailText
        guard !text.isEmpty else { return }
        let total: Int
        let scroll: Int
        if let document = DetailDocument.phone(of: entry, state: state, width: text.width) {
            total = document.rows.count
            scroll = max(0, min(state.detailScroll, total - text.height))
            draw(document, in: text, scroll: scroll, on: &grid)
        } else {
            (total, scroll) = drawText(in: text, on: &grid)
        }
        if total > text.height {
            let last = min(total, scroll + text.height)
            let position = " lines \(scroll + 1)-\(last) of \(total) · Up/Down scroll "
            grid.write(
                position, row: rect.maxRow - 1,
                column: max(rect.column + 2, rect.maxColumn - 2 - TextWidth.of(position)),
                maxWidth: rect.width - 4, style: frame)
        }
        if let prompt = state.prompt, prompt.notificationID == entry.id {
            drawPrompt(prompt, in: text, on: &grid)
        }
    }

    /// The rows from `scroll` on, and the pictures among them.
    private func draw(_ document: DetailDocument, in text: Rect, scroll: Int, on grid: inout CellGrid) {
        for (offset, spans) in document.rows.dropFirst(scroll).prefix(text.height).enumerated() {
            for span in spans where span.column < text.width {
                grid.write(
                    span.text, row: text.row + offset, column: text.column + span.column,
                    maxWidth: text.width - span.column, style: CellStyle(span.style))
            }
        }
        for picture in document.pictures {
            drawPicture(picture, top: text.row + picture.row - scroll, left: text.column, clip: text, on: &grid)
        }
    }

    /// A picture of the card with its top-left cell at (`row`, `column`), clipped to the text area; one that cannot
    /// be drawn (yet) says so on its first row.
    private func drawPicture(_ picture: PlacedPicture, top row: Int, left: Int, clip: Rect, on grid: inout CellGrid) {
        let key = picture.key
        let column = left + picture.column
        let firstVisible = max(0, clip.row - row)
        guard firstVisible < key.rows, row < clip.maxRow else { return }
        func label(_ text: String) {
            guard row >= clip.row else { return }
            grid.write(
                TextLayout.truncate(text, toWidth: picture.labelWidth), row: row, column: left + picture.labelColumn,
                maxWidth: picture.labelWidth, style: .muted)
        }
        switch state.renderedImages[key] {
        case .failed(let reason): label("Image not drawn: \(TextSanitizer.singleLine(reason))")
        case .some(let image):
            guard let frame = image.frame(at: state.animation.elapsed(at: state.now)) else { return }
            grid.draw(
                frame, row: row + firstVisible, column: column, rows: firstVisible..<min(frame.rows, key.rows),
                clip: clip)
        case .none: label(key.purpose == .detail ? "Drawing the image…" : "…")
        }
    }

    /// The text prompt of a text-input button, on the last row of the detail view, over whatever scrolled there.
    private func drawPrompt(_ prompt: TextPrompt, in text: Rect, on grid: inout CellGrid) {
        let row = text.maxRow - 1
        grid.fill(Rect(column: text.column, row: row, width: text.width, height: 1))
        let label = "\(TextSanitizer.singleLine(prompt.action.title, limit: 30)) › "
        let keys = "  Enter: \(TextSanitizer.singleLine(prompt.buttonTitle, limit: 20)) · Esc: cancel"
        var column = grid.write(label, row: row, column: text.column, maxWidth: text.width, style: .accent)
        let room = max(0, text.column + text.width - column - TextWidth.of(keys) - 1)
        if prompt.text.isEmpty {
            column = grid.write(
                TextLayout.truncate(TextSanitizer.singleLine(prompt.placeholder), toWidth: room), row: row,
                column: column, maxWidth: room, style: .muted)
        } else {
            // The end of what was typed stays in sight.
            var shown = prompt.sentText
            while TextWidth.of(shown) > max(0, room - 1), !shown.isEmpty { shown.removeFirst() }
            column = grid.write(shown, row: row, column: column, maxWidth: room, style: .bold)
        }
        column = grid.write("▏", row: row, column: column, style: .accent)
        grid.write(keys, row: row, column: column, maxWidth: text.column + text.width - column, style: .muted)
    }

    /// The notification's text and facts, the image on top (a notification the phone shows nothing of); returns
    /// how many rows there are and the row scrolled to.
    private func drawText(in text: Rect, on grid: inout CellGrid) -> (total: Int, scroll: Int) {
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
        return (total, scroll)
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
