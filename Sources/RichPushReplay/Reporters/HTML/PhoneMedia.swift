import Foundation
import RichPushCore
import RichPushLibrary

/// The pictures and players of one card's phone views, each file embedded once as a `data:` URI (within the
/// report's budget) and shared by the views that draw it.
///
/// Pictures are drawn as CSS backgrounds from one class a card defines, so a thumbnail shown on the lock screen,
/// in the banner and wide in the expanded view costs its bytes once. Audio and video become `<audio controls>` and
/// `<video controls poster>` with their bytes inline (the page's CSP allows `media-src data:` only). The MIME type is
/// always the one the bytes show, never a file name's or a server's.
struct PhoneMedia {
    /// What a file became: a data URI, or why it is not in the report.
    enum Embedded {
        case uri(String)
        case notEmbedded(String)
    }

    private let reporter: HTMLReporter
    private let card: Int
    private var files: [String: Embedded] = [:]
    /// Pictures drawn as backgrounds: their class name and data URI, for the card's `<style>`.
    private(set) var backgrounds: [(className: String, uri: String)] = []

    init(reporter: HTMLReporter, card: Int, known: [String: Embedded] = [:]) {
        self.reporter = reporter
        self.card = card
        files = known
    }

    /// Embeds every picture and player the views draw, each file once, and says what became of each.
    mutating func resolve(_ presentation: NotificationPresentation, budget: inout Int) -> PhoneView.PictureLookup {
        var lookup = PhoneView.PictureLookup()
        for view in presentation.views {
            for media in [view.thumbnail, view.media].compactMap({ $0 }) {
                if let file = media.file, lookup.classes[file] == nil, lookup.notes[file] == nil {
                    switch embed(file, kind: .image, budget: &budget) {
                    case .uri(let uri):
                        let name = "m\(card)-\(backgrounds.count)"
                        backgrounds.append((name, uri))
                        lookup.classes[file] = name
                        lookup.uris[file] = uri
                    case .notEmbedded(let why):
                        lookup.notes[file] = why
                    }
                }
                // Players only where the media is drawn wide (the expanded view).
                if media.kind != .image, view.media == media, let source = media.source,
                    lookup.players[source] == nil, lookup.notes[source] == nil
                {
                    switch embed(source, kind: media.kind, budget: &budget) {
                    case .uri(let uri): lookup.players[source] = uri
                    case .notEmbedded(let why): lookup.notes[source] = why
                    }
                }
            }
        }
        return lookup
    }

    /// The card's `<style>`: one background per picture.
    var style: String {
        guard !backgrounds.isEmpty else { return "" }
        return "<style>"
            + backgrounds.map { ".\($0.className){background-image:url(\"\($0.uri)\")}" }.joined() + "</style>\n"
    }

    private mutating func embed(_ path: String, kind: PresentedMedia.Kind, budget: inout Int) -> Embedded {
        if let done = files[path] { return done }
        let limit = kind == .image ? reporter.maxEmbeddedImageBytes : reporter.maxEmbeddedMediaBytes
        let noun = kind == .image ? "image" : kind.rawValue
        let result: Embedded
        switch reporter.fileBytes(path, limit) {
        case .tooLarge(let size):
            result = .notEmbedded(
                "The \(noun) (\(ByteCount.text(size))) is not embedded: the report embeds \(noun == "image" ? "images" : "audio and video") up to \(ByteCount.limit(limit))."
            )
        case .failure:
            result = .notEmbedded("The \(noun) file was no longer there when the report was written.")
        case .bytes(let bytes):
            if bytes.count > budget {
                result = .notEmbedded(
                    "The \(noun) is not embedded: the report already holds \(ByteCount.limit(reporter.maxTotalImageBytes)) of media."
                )
            } else if let mime = Self.mimeType(bytes, kind: kind) {
                budget -= bytes.count
                result = .uri("data:\(mime);base64,\(Data(bytes).base64EncodedString())")
            } else {
                result = .notEmbedded("The \(noun) is not embedded: its bytes are not a type a browser plays.")
            }
        }
        files[path] = result
        return result
    }

    /// The MIME type the bytes show for their kind; nil when they are not one the report embeds.
    static func mimeType(_ bytes: [UInt8], kind: PresentedMedia.Kind) -> String? {
        func at(_ offset: Int, _ text: String) -> Bool {
            let expected = Array(text.utf8)
            return bytes.count >= offset + expected.count && Array(bytes[offset..<offset + expected.count]) == expected
        }
        switch kind {
        case .image:
            if case .image(let info) = ImageInspector.inspect(bytes.prefix(64 * 1024)) { return info.format.mimeType }
            return nil
        case .video:
            if at(4, "ftyp") { return at(8, "qt  ") ? "video/quicktime" : "video/mp4" }
            if at(0, "RIFF"), at(8, "AVI ") { return "video/x-msvideo" }
            if bytes.count >= 4, bytes[0] == 0, bytes[1] == 0, bytes[2] == 1, bytes[3] == 0xBA || bytes[3] == 0xB3 {
                return "video/mpeg"
            }
            return nil
        case .audio:
            if at(0, "RIFF"), at(8, "WAVE") { return "audio/wav" }
            if at(0, "FORM"), at(8, "AIFF") || at(8, "AIFC") { return "audio/aiff" }
            if at(4, "ftyp") { return "audio/mp4" }
            if at(0, "ID3") || (bytes.count >= 2 && bytes[0] == 0xFF && bytes[1] & 0xE0 == 0xE0) { return "audio/mpeg" }
            return nil
        }
    }

    /// A thumbnail's CSS: the crop rect (or the centred square) scaled to cover a `side`-pixel square.
    static func thumbnailStyle(_ media: PresentedMedia, side: Double) -> String {
        let width = Double(max(media.width, 1))
        let height = Double(max(media.height, 1))
        let crop =
            media.crop
            ?? {
                // No clipping rect: the largest centred square.
                let square = min(width, height)
                return UnitRect(
                    x: (width - square) / 2 / width, y: (height - square) / 2 / height, width: square / width,
                    height: square / height)
            }()
        let cropWidth = crop.width * width
        let cropHeight = crop.height * height
        let scale = max(side / cropWidth, side / cropHeight)
        let left = side / 2 - (crop.x * width + cropWidth / 2) * scale
        let top = side / 2 - (crop.y * height + cropHeight / 2) * scale
        return "background-size:\(css(width * scale))px \(css(height * scale))px;"
            + "background-position:\(css(left))px \(css(top))px"
    }

    /// Seconds as a player shows them: "0:12", "3:05", "1:02:03".
    static func duration(_ seconds: Double) -> String {
        let total = Int(seconds.rounded())
        let (hours, minutes, rest) = (total / 3600, total / 60 % 60, total % 60)
        let tail = (rest < 10 ? "0" : "") + "\(rest)"
        if hours > 0 { return "\(hours):\(minutes < 10 ? "0" : "")\(minutes):\(tail)" }
        return "\(minutes):\(tail)"
    }

    private static func css(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        let rounded = (value * 100).rounded() / 100
        return rounded == rounded.rounded() ? "\(Int(rounded))" : "\(rounded)"
    }
}
