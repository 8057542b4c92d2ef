/// A colour of an image cell, in the colour mode the image was drawn in.
public enum TerminalColor: Hashable, Sendable, CustomStringConvertible {
    /// The terminal's own foreground or background (monochrome, or a transparent pixel).
    case terminalDefault
    /// A palette index: 0-15 the ANSI colours, 16-255 the xterm cube and greys.
    case indexed(UInt8)
    /// A 24-bit colour, 0xRRGGBB.
    case rgb(UInt32)

    public var description: String {
        switch self {
        case .terminalDefault: "-"
        case .indexed(let index): "\(index)"
        case .rgb(let value):
            "#" + String(repeating: "0", count: max(0, 6 - String(value, radix: 16).count))
                + String(value, radix: 16)
        }
    }
}

/// An image drawn as terminal cells: for each cell a block symbol and its two colours. Every symbol is
/// one of the symbol set's (one column wide, never a control character), so a cell image can be put on
/// screen as it is.
public struct CellImage: Sendable, Equatable {
    public struct Cell: Sendable, Equatable, Hashable {
        public var symbol: Unicode.Scalar
        public var foreground: TerminalColor
        public var background: TerminalColor

        public init(symbol: Unicode.Scalar, foreground: TerminalColor, background: TerminalColor) {
            self.symbol = symbol
            self.foreground = foreground
            self.background = background
        }
    }

    public let columns: Int
    public let rows: Int
    public private(set) var cells: [Cell]

    public init(columns: Int, rows: Int, cells: [Cell]) {
        precondition(cells.count == columns * rows, "a cell image has columns x rows cells")
        self.columns = columns
        self.rows = rows
        self.cells = cells
    }

    public subscript(row: Int, column: Int) -> Cell {
        cells[row * columns + column]
    }

    /// The symbols, one line per row: what the snapshot tests compare with the colours below.
    public var symbolText: String {
        (0..<rows).map { row in
            String(String.UnicodeScalarView(cells[(row * columns)..<((row + 1) * columns)].map(\.symbol)))
        }.joined(separator: "\n")
    }

}
