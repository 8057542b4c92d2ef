import Foundation
import RichPushCore
import RichPushReplay

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `replay --preview`: each rich notification's image, drawn under its line of the text report.
enum ReplayPreview {
    /// The rows an image takes at most under its line.
    static let rows = 10

    /// What goes under an item's line, or nil when there is no preview: only for the text report written to
    /// a terminal (a file or a pipe gets the report alone).
    static func make(format: ReplayFormat, output: String?) -> (@Sendable (ReplayItem) -> String)? {
        guard format == .text, output == nil, isatty(STDOUT_FILENO) == 1 else { return nil }
        let images = TerminalImages()
        let columns = max(10, min(60, TerminalImages.terminalSize.columns - 4))
        return { item in text(for: item, images: images, columns: columns) }
    }

    /// The image of a rich notification, indented under its line; nothing for other notifications or an
    /// image the codecs cannot draw (its line already says so).
    static func text(for item: ReplayItem, images: TerminalImages, columns: Int) -> String {
        guard let result = item.result, result.style == .rich, let attachment = result.attachment,
            attachment.decoded != false
        else { return "" }
        guard case .success(let drawing) = images.draw(file: attachment.file, columns: columns, rows: rows),
            !drawing.isEmpty
        else { return "" }
        return images.indented(drawing, by: 4) + "\n"
    }
}
