import RichPushCore
import RichPushGraphics
/// A frame of the UI: what every column of every row shows. Rendering writes into it; the terminal
/// backend only copies it to the screen.
///
/// Writes are clipped by columns, never by bytes: anything outside the grid is dropped, a wide
/// grapheme that does not fit in the remaining columns is not drawn, overwriting half of a wide
/// grapheme blanks its other half, and control characters are replaced so none reaches the terminal.
struct CellGrid: Equatable, Sendable {
    let width: Int
    let height: Int
    private var cells: [Cell]

    init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
        cells = Array(repeating: .blank, count: self.width * self.height)
    }

    init(size: TerminalSize) {
        self.init(width: size.columns, height: size.rows)
    }

    var bounds: Rect { Rect(column: 0, row: 0, width: width, height: height) }

    subscript(row: Int, column: Int) -> Cell {
        guard contains(row: row, column: column) else { return .blank }
        return cells[row * width + column]
    }

    func contains(row: Int, column: Int) -> Bool {
        row >= 0 && row < height && column >= 0 && column < width
    }

    /// Writes `text` from (`row`, `column`), using at most `maxWidth` columns and never past the edge.
    /// Returns the column after the last one written.
    @discardableResult
    mutating func write(_ text: String, row: Int, column: Int, maxWidth: Int? = nil, style: CellStyle = .plain) -> Int {
        guard row >= 0 && row < height else { return column }
        let limit = min(width, maxWidth.map { column + max(0, $0) } ?? width)
        var x = column
        for character in text {
            let safe = Self.displayable(character)
            let columns = TextWidth.of(safe)
            if columns == 0 { continue }
            if x + columns > limit { break }
            if x >= 0 { put(safe, columns: columns, row: row, column: x, style: style) }
            x += columns
        }
        return x
    }

    /// Fills a rectangle with one character (a space clears it).
    mutating func fill(_ rect: Rect, with character: Character = " ", style: CellStyle = .plain) {
        let line = String(repeating: character, count: max(0, rect.width))
        for row in rect.row..<max(rect.row, rect.maxRow) {
            write(line, row: row, column: rect.column, maxWidth: rect.width, style: style)
        }
    }

    /// Puts rows `rows` of `image` with its top-left cell at (`row`, `column`), clipped to `clip`. Image symbols
    /// are one column wide and never control characters (``CellImage``), so they go in as they are.
    mutating func draw(_ image: CellImage, row: Int, column: Int, rows: Range<Int>? = nil, clip: Rect? = nil) {
        let clip = clip ?? bounds
        for imageRow in rows ?? 0..<image.rows {
            let y = row + imageRow - (rows?.lowerBound ?? 0)
            guard y >= max(0, clip.row), y < min(height, clip.maxRow) else { continue }
            for imageColumn in 0..<image.columns {
                let x = column + imageColumn
                guard x >= max(0, clip.column), x < min(width, clip.maxColumn) else { continue }
                let cell = image[imageRow, imageColumn]
                put(
                    Character(cell.symbol), columns: 1, row: y, column: x,
                    style: CellStyle(color: .image(foreground: cell.foreground, background: cell.background)))
            }
        }
    }

    /// Draws a single-line box around `rect`, with an optional title in the top edge.
    mutating func box(_ rect: Rect, title: String? = nil, style: CellStyle = .plain, titleStyle: CellStyle? = nil) {
        guard rect.width >= 2 && rect.height >= 2 else { return }
        let horizontal = String(repeating: "─", count: rect.width - 2)
        write("┌" + horizontal + "┐", row: rect.row, column: rect.column, maxWidth: rect.width, style: style)
        for row in (rect.row + 1)..<(rect.maxRow - 1) {
            write("│", row: row, column: rect.column, style: style)
            write("│", row: row, column: rect.maxColumn - 1, style: style)
        }
        write("└" + horizontal + "┘", row: rect.maxRow - 1, column: rect.column, maxWidth: rect.width, style: style)
        if let title, rect.width > 6 {
            let fitted = TextLayout.truncate(" \(TextSanitizer.singleLine(title)) ", toWidth: rect.width - 4)
            write(fitted, row: rect.row, column: rect.column + 2, style: titleStyle ?? style)
        }
    }

    /// The frame as text, one line per row, trailing spaces removed: what a person would read.
    var text: String {
        var lines: [String] = []
        lines.reserveCapacity(height)
        for row in 0..<height {
            var line = ""
            for column in 0..<width {
                if case .character(let character) = cells[row * width + column].content {
                    line.append(character)
                }
            }
            while line.last == " " { line.removeLast() }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }

    private mutating func put(_ character: Character, columns: Int, row: Int, column: Int, style: CellStyle) {
        let index = row * width + column
        // Writing over the right half of a wide grapheme leaves its left half meaningless.
        if case .continuation = cells[index].content, column > 0 {
            cells[index - 1] = Cell(content: .character(" "), style: cells[index - 1].style)
        }
        // Writing over the left half of a wide grapheme orphans its right half.
        for covered in column..<(column + columns) {
            if case .character(let old) = cells[row * width + covered].content, TextWidth.of(old) == 2,
                covered + 1 < width, covered + 1 >= column + columns
            {
                cells[row * width + covered + 1] = Cell(
                    content: .character(" "), style: cells[row * width + covered + 1].style)
            }
        }
        cells[index] = Cell(content: .character(character), style: style)
        if columns == 2 {
            cells[index + 1] = Cell(content: .continuation, style: style)
        }
    }

    /// Graphemes that could move the cursor or start an escape sequence are replaced, whatever the caller sanitised.
    private static func displayable(_ character: Character) -> Character {
        for scalar in character.unicodeScalars {
            let value = scalar.value
            if value < 0x20 || (0x7F..<0xA0).contains(value) || TextSanitizer.isInvisibleDirectional(value) {
                return Character(TextSanitizer.replacement)
            }
        }
        return character
    }
}
