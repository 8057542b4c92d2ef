import ArgumentParser
import Foundation
import RichPushCodecs
import RichPushCore
import RichPushGraphics
import RichPushTUI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension ImageMode: ExpressibleByArgument {}

/// The notification center's attachment images, decoded by the system codecs at the size they are drawn.
struct CodecImageLoader: AttachmentImageLoading {
    let decoder = ImageDecoder()

    func load(file: String, fittingWidth width: Int, height: Int, firstFrameOnly: Bool)
        -> Result<DecodedImage, ImageLoadError>
    {
        do {
            return .success(
                try decoder.decode(
                    contentsOf: URL(fileURLWithPath: file),
                    fitting: PixelSize(width: max(1, width), height: max(1, height)),
                    frameLimit: firstFrameOnly ? 1 : nil))
        } catch {
            return .failure(ImageLoadError(error.sentence))
        }
    }
}

/// Images drawn on the terminal outside the notification center (`show`, `replay --preview`): chafa's best
/// protocol for the terminal (kitty, iTerm2, sixels) or coloured block symbols.
struct TerminalImages: Sendable {
    let printer: TerminalImagePrinter

    /// For the terminal this process runs in; `symbolsOnly` keeps to block symbols whatever it supports.
    init(symbolsOnly: Bool = false) {
        let environment = ProcessInfo.processInfo.environment
        var graphics = TerminalGraphics.detect(environment: environment)
        if symbolsOnly { graphics.pixelProtocol = .symbols }
        printer = TerminalImagePrinter(graphics: graphics, environment: environment)
    }

    /// The terminal's size in cells (80x24 when standard output is not a terminal).
    static var terminalSize: (columns: Int, rows: Int) {
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 {
            return (Int(size.ws_col), Int(size.ws_row))
        }
        return (80, 24)
    }

    /// The image file drawn within `columns` x `rows` cells, aspect kept, or why it cannot be (a sentence).
    func draw(file: String, columns: Int, rows: Int) -> Result<String, ImageDecodingError> {
        draw(columns: columns, rows: rows) { (box: PixelSize) throws(ImageDecodingError) -> DecodedImage in
            try ImageDecoder().decode(contentsOf: URL(fileURLWithPath: file), fitting: box)
        }
    }

    /// The image in `bytes` drawn within `columns` x `rows` cells, aspect kept, or why it cannot be (a sentence).
    func draw(bytes: [UInt8], columns: Int, rows: Int) -> Result<String, ImageDecodingError> {
        draw(columns: columns, rows: rows) { (box: PixelSize) throws(ImageDecodingError) -> DecodedImage in
            try ImageDecoder().decode(bytes, fitting: box)
        }
    }

    private func draw(
        columns: Int, rows: Int, decode: (PixelSize) throws(ImageDecodingError) -> DecodedImage
    ) -> Result<String, ImageDecodingError> {
        // Enough pixels for a pixel protocol's cells as well as for symbols.
        let image: DecodedImage
        do {
            image = try decode(PixelSize(width: columns * 12, height: rows * 24))
        } catch {
            return .failure(error)
        }
        return .success(printer.draw(image, columns: columns, rows: rows))
    }

    /// Every line of `drawing` indented by `indent` spaces (block symbols only: a pixel protocol's sequence
    /// must stay whole).
    func indented(_ drawing: String, by indent: Int) -> String {
        guard printer.graphics.pixelProtocol == .symbols else { return drawing }
        let pad = String(repeating: " ", count: indent)
        return drawing.split(separator: "\n", omittingEmptySubsequences: false).map { pad + $0 }.joined(
            separator: "\n")
    }
}
