public import RichPushCore
import RichPushGraphics

/// Whether the notification center draws attachment images (`--images`).
public enum ImageMode: String, Sendable, CaseIterable {
    /// Images when the terminal has colours and a UTF-8 locale; text only otherwise.
    case auto
    /// Images as block symbols whatever the terminal says (shapes only without colours).
    case symbols
    /// Text only: the layout without thumbnails or images.
    case none
}

/// Reads an attachment's image file into pixels no larger than it is drawn: the notification center
/// decodes with the system codecs; tests pass pictures they built.
public protocol AttachmentImageLoading: Sendable {
    /// The pixels of the image at `file`, scaled down to fit `width`x`height` pixels with the aspect kept,
    /// or why it cannot be drawn (a sentence, e.g. "the PNG data ends early"). With `firstFrameOnly`, an
    /// animation's first frame alone (a thumbnail), the others not decoded.
    func load(file: String, fittingWidth width: Int, height: Int, firstFrameOnly: Bool)
        -> Result<DecodedImage, ImageLoadError>
}

/// Why an attachment's image was not drawn, as the detail view says it.
public struct ImageLoadError: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// How the notification center draws images once it knows the terminal: the colours and symbols of
/// the cells.
struct ImageSettings: Equatable, Sendable {
    var renderer: CellRenderer

    /// The settings for `mode` on a terminal with `colors` colours (direct: packed RGB colour numbers) and
    /// a UTF-8 locale or not; nil draws no images.
    static func resolve(mode: ImageMode, colors: Int, direct: Bool, utf8: Bool) -> ImageSettings? {
        let colorMode: ColorMode =
            if direct { .truecolor } else if colors >= 256 { .indexed256 } else if colors >= 16 {
                .indexed16
            } else if colors >= 8 { .indexed8 } else { .monochrome }
        switch mode {
        case .none:
            return nil
        case .auto:
            guard utf8, colorMode != .monochrome else { return nil }
        case .symbols:
            break
        }
        return ImageSettings(renderer: CellRenderer(colorMode: colorMode, symbols: .quadrants))
    }
}
