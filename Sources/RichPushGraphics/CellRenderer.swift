import CChafaShim
public import RichPushCore

/// Draws pixels as terminal cells with libchafa: each cell gets the block symbol of the symbol set and
/// the two colours of the colour mode that best match its pixels.
///
/// ```swift
/// let renderer = CellRenderer(colorMode: .indexed256, symbols: .quadrants)
/// let size = CellRenderer.fit(width: 640, height: 480, columns: 12, rows: 3)  // 8x3
/// let thumbnail = renderer.render(image, columns: size.columns, rows: size.rows)
/// ```
/// Deterministic: the same pixels, size, mode and symbol set always give the same cells.
public struct CellRenderer: Sendable, Hashable {
    /// How wide a terminal cell is for its height; cells are about twice as tall as wide.
    public static let cellAspect: Float = 0.5

    public var colorMode: ColorMode
    public var symbols: SymbolSet
    /// How hard chafa searches for the best symbol, 0...1 (more is slower and finer).
    public var workFactor: Float

    public init(colorMode: ColorMode, symbols: SymbolSet = .quadrants, workFactor: Float = 0.5) {
        self.colorMode = colorMode
        self.symbols = symbols
        self.workFactor = workFactor
    }

    /// The largest size in cells, at most `columns` x `rows`, that shows an image of `width`x`height`
    /// pixels with its aspect kept (at least 1x1).
    public static func fit(width: Int, height: Int, columns: Int, rows: Int) -> (columns: Int, rows: Int) {
        guard width > 0, height > 0, columns > 0, rows > 0 else { return (max(1, columns), max(1, rows)) }
        var fittedColumns = Int32(columns)
        var fittedRows = Int32(rows)
        rp_chafa_fit(Int32(width), Int32(height), cellAspect, &fittedColumns, &fittedRows)
        return (min(columns, Int(fittedColumns)), min(rows, Int(fittedRows)))
    }

    /// Frame `frame` of `image` drawn on exactly `columns` x `rows` cells (use ``fit(width:height:columns:rows:)``
    /// to keep the aspect). Nil for an empty image or size.
    public func render(_ image: DecodedImage, frame: Int = 0, columns: Int, rows: Int) -> CellImage? {
        guard image.frames.indices.contains(frame), columns > 0, rows > 0,
            image.width > 0, image.height > 0,
            image.frames[frame].rgba.count >= image.width * image.height * 4
        else { return nil }
        let count = columns * rows
        var symbolCodes = [UInt32](repeating: 0x20, count: count)
        var foregrounds = [Int32](repeating: -1, count: count)
        var backgrounds = [Int32](repeating: -1, count: count)
        let status = image.frames[frame].rgba.withUnsafeBufferPointer { pixels in
            rp_chafa_cells(
                pixels.baseAddress, Int32(image.width), Int32(image.height), Int32(image.width * 4),
                Int32(columns), Int32(rows), colorMode.chafa, symbols.chafa, workFactor,
                &symbolCodes, &foregrounds, &backgrounds)
        }
        guard status == 0 else { return nil }
        var cells: [CellImage.Cell] = []
        cells.reserveCapacity(count)
        for index in 0..<count {
            cells.append(
                CellImage.Cell(
                    symbol: Self.safeSymbol(symbolCodes[index]),
                    foreground: color(foregrounds[index]), background: color(backgrounds[index])))
        }
        return CellImage(columns: columns, rows: rows, cells: cells)
    }

    private func color(_ value: Int32) -> TerminalColor {
        guard value >= 0 else { return .terminalDefault }
        switch colorMode {
        case .truecolor: return .rgb(UInt32(value) & 0xFF_FFFF)
        case .monochrome: return .terminalDefault
        case .indexed256, .indexed16, .indexed8: return value < 256 ? .indexed(UInt8(value)) : .terminalDefault
        }
    }

    /// Chafa only picks symbols of the set asked for; anything else (never expected) becomes a space, so
    /// no control character can come out of a cell image.
    static func safeSymbol(_ code: UInt32) -> Unicode.Scalar {
        guard code >= 0x20, !(0x7F..<0xA0).contains(code), let scalar = Unicode.Scalar(code) else { return " " }
        return scalar
    }
}
