import RichPushCore

/// The notification center, newest first: arrival time, title, subtitle, body preview, and what the
/// phone shows (image summary, plain text with the reason, or live progress). A collapsed stack of one
/// thread-id shows its newest notification and a "+N more" line.
struct NotificationListPane {
    static let rowsPerNotification = 4

    var state: TUIState

    func draw(in rect: Rect, on grid: inout CellGrid) {
        let focused = state.focus == .notifications
        let frame = focused ? CellStyle(color: .accent, bold: true) : CellStyle.muted
        var title = "Notification Center (\(state.notifications.count))"
        if state.inFlightCount > 0 { title += " · \(state.inFlightCount) in flight" }
        grid.box(rect, title: title, style: frame)
        let inside = rect.inset(by: 1)
        guard !inside.isEmpty else { return }

        if state.notifications.isEmpty {
            let message =
                "No notifications yet. Pick a payload on the left and press Enter to send it in the current app state."
            for (offset, line) in TextLayout.wrap(message, width: inside.width - 2).prefix(inside.height).enumerated() {
                grid.write(line, row: inside.row + offset, column: inside.column + 1, style: .muted)
            }
            return
        }

        // A partly visible last notification still counts, so the selection can reach the bottom.
        let rows = state.rows
        let visible = max(1, (inside.height + 1) / Self.rowsPerNotification)
        let viewport = ListViewport(itemCount: rows.count, selection: state.notificationSelection, visible: visible)
        for (offset, index) in viewport.range.enumerated() {
            let top = inside.row + offset * Self.rowsPerNotification
            let row = rows[index]
            drawEntry(
                row.entry, selected: index == state.notificationSelection, focused: focused, top: top, inside: inside,
                on: &grid)
            if let stack = row.stack { drawStackLine(stack, top: top + 3, inside: inside, on: &grid) }
        }
        if viewport.count < rows.count {
            let position = " \(state.notificationSelection + 1)/\(rows.count) "
            grid.write(
                position, row: rect.maxRow - 1, column: rect.maxColumn - 2 - TextWidth.of(position), style: frame)
        }
    }

    private func drawEntry(
        _ entry: NotificationEntry, selected: Bool, focused: Bool, top: Int, inside: Rect, on grid: inout CellGrid
    ) {
        let indent = 12
        // A rich notification's thumbnail sits at the right of its text, as on iOS.
        let thumbnail = state.images == nil ? nil : ImageLayout.thumbnailKey(of: entry)
        let reserved = thumbnail.map { $0.columns + 1 } ?? 0
        let textWidth = inside.width - indent - 1 - reserved
        let base = selected && focused ? CellStyle(reverse: true) : CellStyle.plain
        func visible(_ row: Int) -> Bool { row < inside.maxRow }

        if selected && focused {
            for row in top..<min(top + 3, inside.maxRow) {
                grid.fill(Rect(column: inside.column, row: row, width: inside.width, height: 1), style: base)
            }
        }

        // Line 1: marker, arrival time, title — subtitle.
        if visible(top) {
            grid.write(selected ? "▶" : " ", row: top, column: inside.column, style: base.with(bold: true))
            let time = NotificationSummary.arrival(of: entry, startTimeOfDay: state.startTimeOfDay)
            grid.write(time, row: top, column: inside.column + 2, style: selected ? base : .muted)
            let (title, subtitle) = NotificationSummary.headline(of: entry)
            var column = inside.column + indent
            let limit = inside.maxColumn - 1 - reserved
            if title.isEmpty && subtitle.isEmpty {
                grid.write(
                    TextLayout.truncate(entry.file, toWidth: limit - column), row: top, column: column,
                    style: base.with(color: .muted))
            } else {
                if !title.isEmpty {
                    column = grid.write(
                        TextLayout.truncate(title, toWidth: limit - column), row: top, column: column,
                        style: base.with(bold: true))
                }
                if !subtitle.isEmpty && limit - column > 4 {
                    let separator = title.isEmpty ? "" : " — "
                    grid.write(
                        TextLayout.truncate(separator + subtitle, toWidth: limit - column), row: top, column: column,
                        style: base)
                }
            }
        }

        // Line 2: body preview.
        if visible(top + 1) {
            let body = TextSanitizer.singleLine(entry.content.body)
            grid.write(
                TextLayout.truncate(body, toWidth: textWidth), row: top + 1, column: inside.column + indent,
                style: base)
        }

        // Line 3: what the phone shows; the payload and the state it was sent in, when there is room.
        if visible(top + 2) {
            var status = NotificationSummary.status(of: entry, now: state.now, configured: state.configuredLimits)
            // Why the phone drew no banner, first: held by Focus, waiting for the summary, quiet, …
            if let word = PhoneText.rowWord(of: entry) { status.text = "\(word) · \(status.text)" }
            let origin = "\(TextSanitizer.singleLine(entry.file)) · \(entry.appState.rawValue)"
            let originWidth = TextWidth.of(origin)
            let statusWidth = TextWidth.of(status.text)
            var statusBudget = textWidth
            if statusWidth + 3 + originWidth <= textWidth {
                grid.write(
                    origin, row: top + 2, column: inside.column + indent + textWidth - originWidth,
                    style: selected && focused ? base : .muted)
                statusBudget = textWidth - originWidth - 3
            }
            var style = CellStyle(status.style)
            if selected && focused { style.reverse = true }
            grid.write(
                TextLayout.truncate(status.text, toWidth: statusBudget), row: top + 2, column: inside.column + indent,
                style: style)
        }

        if let thumbnail, case .frames(let frames, _) = state.renderedImages[thumbnail], let first = frames.first {
            grid.draw(
                first, row: top, column: inside.maxColumn - 1 - thumbnail.columns,
                clip: Rect(column: inside.column, row: top, width: inside.width, height: min(3, inside.maxRow - top)))
        }
    }

    /// The line under a stack's notification: "+2 more · thread sale-42" on a collapsed stack; under the
    /// last notification of an expanded one, how to fold it again.
    private func drawStackLine(_ stack: NotificationRow.Stack, top: Int, inside: Rect, on grid: inout CellGrid) {
        guard top < inside.maxRow else { return }
        let group = stack.group.label
        let text: String
        if !stack.isExpanded {
            text = "+\(stack.count - 1) more · \(group) · Enter expands"
        } else if stack.isLast {
            text = "\(group) · \(stack.count) notifications · Space collapses"
        } else {
            return
        }
        let indent = 12
        grid.write(
            TextLayout.truncate(text, toWidth: inside.width - indent - 1), row: top, column: inside.column + indent,
            style: .muted)
    }
}
