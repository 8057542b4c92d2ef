import CChafaShim
public import RichPushCore

/// Draws an image for a terminal outside curses (`richpush show`, `replay --preview`): the escape
/// sequences of the terminal's best protocol, or coloured block symbols. The output holds only the
/// image's pixels and the symbols and sequences libchafa makes of them, never text from a payload.
///
/// ```swift
/// let printer = TerminalImagePrinter(graphics: .detect(environment: ProcessInfo.processInfo.environment),
///                                    environment: ProcessInfo.processInfo.environment)
/// print(printer.draw(image, columns: 60, rows: 20), terminator: "\n")
/// ```
public struct TerminalImagePrinter: Sendable {
    public var graphics: TerminalGraphics
    public var symbols: SymbolSet
    /// The terminal's environment; chafa reads the sequences to use from it.
    public var environment: [String: String]

    public init(graphics: TerminalGraphics, symbols: SymbolSet = .blocks, environment: [String: String]) {
        self.graphics = graphics
        self.symbols = symbols
        self.environment = environment
    }

    /// The size in cells the image takes within `columns` x `rows`, aspect kept.
    public func size(of image: DecodedImage, columns: Int, rows: Int) -> (columns: Int, rows: Int) {
        CellRenderer.fit(width: image.width, height: image.height, columns: columns, rows: rows)
    }

    /// The first frame of `image` within `columns` x `rows` cells, aspect kept: rows separated by
    /// newlines, no newline at the end, attributes reset after the image. Empty when nothing can be drawn.
    public func draw(_ image: DecodedImage, columns: Int, rows: Int) -> String {
        guard let frame = image.frames.first, image.width > 0, image.height > 0,
            frame.rgba.count >= image.width * image.height * 4
        else { return "" }
        let size = size(of: image, columns: columns, rows: rows)
        var length = 0
        let printed = frame.rgba.withUnsafeBufferPointer { pixels in
            withEnvironment(environment) { envp in
                rp_chafa_print(
                    pixels.baseAddress, Int32(image.width), Int32(image.height), Int32(image.width * 4),
                    Int32(size.columns), Int32(size.rows), graphics.pixelProtocol.chafa, graphics.colorMode.chafa,
                    symbols.chafa, envp, &length)
            }
        }
        guard let printed else { return "" }
        defer { rp_chafa_free(printed) }
        let bytes = UnsafeBufferPointer(
            start: UnsafeRawPointer(printed).assumingMemoryBound(to: UInt8.self), count: length)
        var text = String(decoding: bytes, as: UTF8.self)
        while text.hasSuffix("\n") { text.removeLast() }
        return text + "\u{1B}[0m"
    }
}
