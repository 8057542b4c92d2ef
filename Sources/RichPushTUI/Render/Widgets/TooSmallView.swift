import RichPushCore
/// Shown instead of the layout when the terminal is smaller than it needs.
struct TooSmallView {
    var size: TerminalSize

    var message: String {
        let minimum = TUIState.minimumSize
        return "Terminal too small: need \(minimum.columns)x\(minimum.rows), have \(size.columns)x\(size.rows)"
    }

    func draw(on grid: inout CellGrid) {
        let width = grid.width
        var lines = TextLayout.wrap(message, width: width).map { StyledLine($0, .warning) }
        lines += TextLayout.wrap("Enlarge the window, or press q to quit.", width: width).map { StyledLine($0) }
        let top = max(0, (grid.height - lines.count) / 2)
        for (offset, line) in lines.enumerated() {
            let column = max(0, (width - TextWidth.of(line.text)) / 2)
            grid.write(line.text, row: top + offset, column: column, style: CellStyle(line.style))
        }
    }
}
