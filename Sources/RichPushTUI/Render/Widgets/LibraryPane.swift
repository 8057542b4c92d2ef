import RichPushCore
/// The payload files to pick from, with the selected one marked.
struct LibraryPane {
    var state: TUIState

    func draw(in rect: Rect, on grid: inout CellGrid) {
        let focused = state.focus == .library && state.detailID == nil
        let frame = focused ? CellStyle(color: .accent, bold: true) : CellStyle.muted
        grid.box(rect, title: "Payloads (\(state.library.count))", style: frame)
        let inside = rect.inset(by: 1)
        guard !inside.isEmpty else { return }

        if let error = state.libraryError {
            let lines = TextLayout.wrap(TextSanitizer.singleLine(error), width: inside.width - 1)
            for (offset, line) in lines.prefix(inside.height).enumerated() {
                grid.write(line, row: inside.row + offset, column: inside.column + 1, style: .danger)
            }
            return
        }
        if state.library.isEmpty {
            let message = "No .json or .apns files in \(state.libraryRoot). Press r to reload."
            let lines = TextLayout.wrap(TextSanitizer.singleLine(message), width: inside.width - 1)
            for (offset, line) in lines.prefix(inside.height).enumerated() {
                grid.write(line, row: inside.row + offset, column: inside.column + 1, style: .muted)
            }
            return
        }

        let viewport = ListViewport(
            itemCount: state.library.count, selection: state.librarySelection, visible: inside.height)
        for (offset, index) in viewport.range.enumerated() {
            let row = inside.row + offset
            let selected = index == state.librarySelection
            let file = state.library[index]
            // A payload written for a team's extension ends in "ext": plain when this notification center runs that
            // extension, muted (and its name too) when Enter would not send it.
            let mark = state.libraryExtensionMarks[file]
            let tag = mark == nil ? "" : " ext"
            let name = TextLayout.truncate(
                TextSanitizer.singleLine(file), toWidth: inside.width - 2 - TextWidth.of(tag))
            let highlighted = selected && focused
            let style =
                highlighted
                ? CellStyle(bold: true, reverse: true) : mark?.isMet == false ? CellStyle.muted : CellStyle.plain
            if highlighted {
                grid.fill(Rect(column: inside.column, row: row, width: inside.width, height: 1), style: style)
            }
            grid.write(selected ? "▶" : " ", row: row, column: inside.column, style: style)
            grid.write(name, row: row, column: inside.column + 2, style: style)
            if let mark {
                let tagStyle = highlighted ? style : mark.isMet ? CellStyle.accent : CellStyle.muted
                grid.write(
                    tag, row: row, column: inside.column + inside.width - TextWidth.of(tag), style: tagStyle)
            }
        }
        if viewport.count < state.library.count {
            let position = " \(state.librarySelection + 1)/\(state.library.count) "
            grid.write(
                position, row: rect.maxRow - 1, column: rect.maxColumn - 2 - TextWidth.of(position), style: frame)
        }
    }
}
