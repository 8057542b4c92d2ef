import RichPushCore

/// The top line: what this is, the app state and the phone's state (always visible) with the summary's count, where
/// pushes are received, and counts.
struct HeaderView {
    var state: TUIState

    func draw(in rect: Rect, on grid: inout CellGrid) {
        grid.fill(rect, style: .header)
        let listening = state.listening.map { "   " + TextSanitizer.singleLine($0, limit: 60) } ?? ""
        let name = rect.width >= 130 + TextWidth.of(listening) ? " richpush · notification center" : " richpush"
        var column = grid.write(name, row: rect.row, column: rect.column, style: .header)
        column = grid.write("   App state: ", row: rect.row, column: column, style: .header)
        column = grid.write(
            state.appState.rawValue.uppercased(), row: rect.row, column: column,
            style: CellStyle.header.with(bold: true))
        column = grid.write(" (f/b/c/s)", row: rect.row, column: column, style: .header)
        if state.sdk != .requirement {
            column = grid.write("   SDK: ", row: rect.row, column: column, style: .header)
            column = grid.write(
                state.sdk.name.uppercased(), row: rect.row, column: column, style: CellStyle.header.with(bold: true))
            column = grid.write(" (p)", row: rect.row, column: column, style: .header)
        }
        let count = state.notifications.count
        var counts = "\(count) notification\(count == 1 ? "" : "s")"
        let inFlight = state.inFlightCount
        if inFlight > 0 { counts += " · \(inFlight) in flight" }
        if state.droppedCount > 0 { counts += " · \(state.droppedCount) older dropped" }

        let phone = PhoneText.words(state.phone)
        let waiting = state.summaryWaiting.count
        let summary = waiting > 0 ? " · summary \(waiting)" : ""
        // The phone's keys are named when the counts still fit beside them.
        let hint = " (L/F/M/S/D)"
        let phoneWidth = TextWidth.of("   Phone: " + phone + summary)
        let fitsHint = column + phoneWidth + TextWidth.of(hint) + 2 + TextWidth.of(counts + " ") <= rect.maxColumn
        column = grid.write("   Phone: ", row: rect.row, column: column, style: .header)
        column = grid.write(
            phone, row: rect.row, column: column,
            style: phone == "unlocked" ? .header : CellStyle.header.with(bold: true))
        if !summary.isEmpty {
            column = grid.write(summary, row: rect.row, column: column, style: CellStyle.header.with(bold: true))
        }
        if fitsHint { column = grid.write(hint, row: rect.row, column: column, style: .header) }
        if !listening.isEmpty, column + TextWidth.of(listening) <= rect.maxColumn {
            column = grid.write(listening, row: rect.row, column: column, style: .header)
        }

        // The counts, with the help hint when there is room for both.
        for right in ["\(counts) · ? help ", "\(counts) "] {
            let rightWidth = TextWidth.of(right)
            if column + 2 + rightWidth <= rect.maxColumn {
                grid.write(right, row: rect.row, column: rect.maxColumn - rightWidth, style: .header)
                break
            }
        }
    }
}
