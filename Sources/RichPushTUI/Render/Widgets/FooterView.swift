import RichPushCore
/// The bottom line: the last status message on the left, the main keys on the right.
struct FooterView {
    var state: TUIState

    private var hints: String {
        if state.isHelpVisible { return "Esc close help · q quit " }
        if state.openSummary != nil { return "Esc close the summary · q quit " }
        if state.detailID != nil {
            let space =
                state.detailImage?.isAnimated == true ? "Space \(state.animation.isPaused ? "play" : "pause") · " : ""
            return space + "Up/Down scroll · Esc back · d delete · ? help · q quit "
        }
        return state.focus == .library
            ? "Enter send · Tab focus · f/b/c/s state · ? help · q quit "
            : "Enter open · Space stack · d delete · x clear · e export · w record · Tab focus · ? help · q quit "
    }

    func draw(in rect: Rect, on grid: inout CellGrid) {
        var hints = self.hints
        let status = state.status.map { " " + TextSanitizer.singleLine($0) } ?? ""
        if TextWidth.of(status) + TextWidth.of(hints) + 2 > rect.width { hints = "? help · q quit " }
        let hintsWidth = TextWidth.of(hints)
        let statusWidth = max(0, rect.width - hintsWidth - 2)
        grid.write(
            TextLayout.truncate(status, toWidth: statusWidth), row: rect.row, column: rect.column, style: .accent)
        if hintsWidth <= rect.width {
            grid.write(hints, row: rect.row, column: rect.maxColumn - hintsWidth, style: .muted)
        }
    }
}
