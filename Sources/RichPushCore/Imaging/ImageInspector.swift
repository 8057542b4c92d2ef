public import Foundation

/// What the bytes of an image say about it.
public struct ImageInfo: Sendable, Equatable {
    public var format: ImageFormat
    public var width: Int
    public var height: Int
    /// Frames: 1 for still images, every image descriptor for GIF, `acTL` frames for APNG.
    public var frames: Int
    /// True when the data ends before the image does (headers were readable, so metadata is kept).
    public var isTruncated: Bool
    /// True for progressive JPEG (SOF2 and friends).
    public var isProgressive: Bool

    public init(
        format: ImageFormat, width: Int, height: Int, frames: Int = 1, isTruncated: Bool = false,
        isProgressive: Bool = false
    ) {
        self.format = format
        self.width = width
        self.height = height
        self.frames = frames
        self.isTruncated = isTruncated
        self.isProgressive = isProgressive
    }
}

/// The verdict on a body of bytes.
public enum ImageInspection: Sendable, Equatable {
    /// A PNG, JPEG or GIF with its metadata.
    case image(ImageInfo)
    /// An image type iOS notifications do not show; the associated value names it ("WebP", "HEIC", "SVG"…).
    case unsupportedImageType(String)
    /// Not an image; the associated value says what it looks like ("HTML text", "empty body", "truncated PNG"…).
    case notAnImage(String)

}

/// Detects the image format from magic bytes and reads its metadata (size, frames).
///
/// Pure: it reads through an ``ImageByteSource`` in bounded chunks and never loads a whole file.
/// It never traps on malformed or truncated input.
public enum ImageInspector {
    /// Inspects bytes in memory.
    public static func inspect(_ bytes: some Sequence<UInt8>) -> ImageInspection {
        // An in-memory source cannot throw.
        (try? inspect(source: InMemoryByteSource(bytes))) ?? .notAnImage("unreadable bytes")
    }

    /// Inspects a file, reading it in chunks.
    public static func inspect(fileAt url: URL) throws -> ImageInspection {
        try inspect(source: FileByteSource(url: url))
    }

    /// Inspects any byte source.
    public static func inspect(source: any ImageByteSource) throws -> ImageInspection {
        var reader = ByteReader(source)
        if reader.count == 0 { return .notAnImage("empty body") }
        let head = try reader.prefix(at: 0, upTo: 64)

        if let result = try detectPNG(&reader, head: head) { return result }
        if let result = try detectJPEG(&reader, head: head) { return result }
        if let result = try detectGIF(&reader, head: head) { return result }
        if let name = otherImageType(head) { return .unsupportedImageType(name) }
        return try describeNonImage(&reader, head: head)
    }

    // MARK: - PNG

    private static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    private static func detectPNG(_ reader: inout ByteReader, head: [UInt8]) throws
        -> ImageInspection?
    {
        guard
            head.starts(with: pngSignature)
                || (head.count < 8 && head.count >= 2 && pngSignature.starts(with: head))
        else {
            return nil
        }
        // Signature (8) + IHDR length (4) + "IHDR" (4) + width (4) + height (4).
        guard head.count >= 24 else {
            return .notAnImage("truncated PNG (\(reader.count) bytes, header cut)")
        }
        guard Array(head[12..<16]) == Array("IHDR".utf8) else {
            return .notAnImage("malformed PNG (no IHDR chunk)")
        }
        let width = be32(head, 16)
        let height = be32(head, 20)
        guard width > 0, height > 0 else { return .notAnImage("malformed PNG (\(width)x\(height))") }

        // Walk the chunks by their lengths (seeking, not reading bodies): acTL gives APNG frames, IEND ends it.
        var frames = 1
        var offset = 8
        var sawEnd = false
        while offset + 8 <= reader.count {
            guard let length = try reader.uint32BE(at: offset),
                let type = try reader.bytes(at: offset + 4, count: 4)
            else { break }
            if type == Array("acTL".utf8), let count = try reader.uint32BE(at: offset + 8), count > 0 {
                frames = count
            }
            if type == Array("IEND".utf8) {
                sawEnd = true
                break
            }
            offset += 12 + length
        }
        return .image(
            ImageInfo(format: .png, width: width, height: height, frames: frames, isTruncated: !sawEnd))
    }

    // MARK: - JPEG

    private static func detectJPEG(_ reader: inout ByteReader, head: [UInt8]) throws
        -> ImageInspection?
    {
        let soi: [UInt8] = [0xFF, 0xD8, 0xFF]
        guard head.starts(with: soi) || (head.count < 3 && head.count >= 2 && soi.starts(with: head))
        else {
            return nil
        }
        var offset = 2
        while true {
            // Markers start with 0xFF, possibly padded with more 0xFF fill bytes.
            guard let lead = try reader.byte(at: offset) else {
                return .notAnImage("truncated JPEG (\(reader.count) bytes, no frame header)")
            }
            guard lead == 0xFF else { return .notAnImage("malformed JPEG (no marker at byte \(offset))") }
            var markerOffset = offset + 1
            while let fill = try reader.byte(at: markerOffset), fill == 0xFF { markerOffset += 1 }
            guard let marker = try reader.byte(at: markerOffset) else {
                return .notAnImage("truncated JPEG (\(reader.count) bytes, no frame header)")
            }
            let segment = markerOffset + 1
            switch marker {
            case 0x01, 0xD0...0xD7:
                offset = segment  // standalone markers carry no length
                continue
            case 0xD9, 0xDA:
                return .notAnImage("malformed JPEG (no frame header before the image data)")
            default:
                break
            }
            guard let length = try reader.uint16BE(at: segment) else {
                return .notAnImage("truncated JPEG (\(reader.count) bytes, no frame header)")
            }
            guard length >= 2 else { return .notAnImage("malformed JPEG (segment length \(length))") }
            // SOF0…SOF15 except DHT (C4), JPG (C8) and DAC (CC).
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                guard let height = try reader.uint16BE(at: segment + 3),
                    let width = try reader.uint16BE(at: segment + 5)
                else { return .notAnImage("truncated JPEG (\(reader.count) bytes, frame header cut)") }
                guard width > 0, height > 0 else {
                    return .notAnImage("malformed JPEG (\(width)x\(height))")
                }
                let tail = try reader.bytes(at: reader.count - 2, count: 2)
                let progressive = [0xC2, 0xC6, 0xCA, 0xCE].contains(marker)
                return .image(
                    ImageInfo(
                        format: .jpeg, width: width, height: height, frames: 1,
                        isTruncated: tail != [0xFF, 0xD9], isProgressive: progressive
                    )
                )
            }
            offset = segment + length
        }
    }

    // MARK: - GIF

    private static func detectGIF(_ reader: inout ByteReader, head: [UInt8]) throws
        -> ImageInspection?
    {
        let is87 = head.starts(with: Array("GIF87a".utf8))
        let is89 = head.starts(with: Array("GIF89a".utf8))
        let isPrefix = head.count < 6 && head.count >= 3 && Array("GIF89a".utf8).starts(with: head)
        guard is87 || is89 || isPrefix else { return nil }
        // Header (6) + logical screen descriptor (7).
        guard head.count >= 13 else {
            return .notAnImage("truncated GIF (\(reader.count) bytes, header cut)")
        }
        let width = Int(head[6]) | Int(head[7]) << 8
        let height = Int(head[8]) | Int(head[9]) << 8
        guard width > 0, height > 0 else { return .notAnImage("malformed GIF (\(width)x\(height))") }

        var offset = 13
        if head[10] & 0x80 != 0 { offset += 3 << (Int(head[10] & 0x07) + 1) }
        var frames = 0
        var complete = false
        walk: while let introducer = try reader.byte(at: offset) {
            switch introducer {
            case 0x2C:  // image descriptor: 9 bytes, optional local colour table, LZW code size, sub-blocks
                frames += 1
                guard let packed = try reader.byte(at: offset + 9) else { break walk }
                offset += 10
                if packed & 0x80 != 0 { offset += 3 << (Int(packed & 0x07) + 1) }
                offset += 1  // LZW minimum code size
                guard let next = try skipSubBlocks(&reader, from: offset) else { break walk }
                offset = next
            case 0x21:  // extension: label, then sub-blocks
                guard let next = try skipSubBlocks(&reader, from: offset + 2) else { break walk }
                offset = next
            case 0x3B:  // trailer
                complete = true
                break walk
            default:
                break walk  // garbage after the last frame: keep what was read
            }
        }
        return .image(
            ImageInfo(
                format: .gif, width: width, height: height, frames: max(frames, 1), isTruncated: !complete)
        )
    }

    /// Offset after a chain of sub-blocks ending with a zero-length block, or nil if the data ends first.
    private static func skipSubBlocks(_ reader: inout ByteReader, from start: Int) throws -> Int? {
        var offset = start
        while let size = try reader.byte(at: offset) {
            offset += 1
            if size == 0 { return offset }
            offset += Int(size)
        }
        return nil
    }

    // MARK: - Recognised but unsupported

    private static func otherImageType(_ head: [UInt8]) -> String? {
        func ascii(_ range: Range<Int>) -> String? {
            guard head.count >= range.upperBound else { return nil }
            return String(decoding: head[range], as: UTF8.self)
        }
        if ascii(0..<4) == "RIFF", ascii(8..<12) == "WEBP" { return "WebP" }
        if ascii(4..<8) == "ftyp", let brand = isoMediaImageBrand(head) { return brand }
        if head.starts(with: [0x49, 0x49, 0x2A, 0x00]) || head.starts(with: [0x4D, 0x4D, 0x00, 0x2A]) {
            return "TIFF"
        }
        if head.starts(with: [0x42, 0x4D]), head.count >= 18 {
            let dibHeaderSize =
                Int(head[14]) | Int(head[15]) << 8 | Int(head[16]) << 16 | Int(head[17]) << 24
            if [12, 16, 40, 52, 56, 64, 108, 124].contains(dibHeaderSize) { return "BMP" }
        }
        // ICONDIR: reserved 0, type 1 (icon) or 2 (cursor), image count > 0.
        if head.count >= 6, head[0] == 0, head[1] == 0, head[3] == 0, head[4] != 0 || head[5] != 0 {
            if head[2] == 1 { return "ICO" }
            if head[2] == 2 { return "CUR" }
        }
        if head.starts(with: [0xFF, 0x0A])
            || head.starts(with: [0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20])
        {
            return "JPEG XL"
        }
        if head.starts(with: [0, 0, 0, 0x0C, 0x6A, 0x50, 0x20, 0x20]) { return "JPEG 2000" }
        if ascii(0..<4) == "8BPS" { return "Photoshop (PSD)" }
        if isSVG(head) { return "SVG" }
        return nil
    }

    /// HEIC / HEIF / AVIF from the `ftyp` box's major and compatible brands; nil for video and other media.
    private static func isoMediaImageBrand(_ head: [UInt8]) -> String? {
        guard head.count >= 12 else { return nil }
        let boxSize = be32(head, 0)
        var brands = [String(decoding: head[8..<12], as: UTF8.self)]
        var offset = 16
        while offset + 4 <= min(head.count, max(boxSize, 16)) {
            brands.append(String(decoding: head[offset..<offset + 4], as: UTF8.self))
            offset += 4
        }
        for brand in brands {
            switch brand {
            case "heic", "heix", "heim", "heis", "hevc", "hevx", "hevm", "hevs": return "HEIC"
            case "avif", "avis": return "AVIF"
            case "mif1", "msf1", "mif2": return "HEIF"
            default: continue
            }
        }
        return nil
    }

    private static func isSVG(_ head: [UInt8]) -> Bool {
        let text = leadingText(head)
        return text.hasPrefix("<svg")
            || (text.hasPrefix("<?xml") || text.hasPrefix("<!doctype svg"))
                && text.contains("<svg")
    }

    // MARK: - Not an image

    private static func describeNonImage(_ reader: inout ByteReader, head: [UInt8]) throws
        -> ImageInspection
    {
        // Look further for text-based formats whose tell-tale element may come after a long prolog.
        let start = try reader.prefix(at: 0, upTo: 4096)
        if isSVG(start) { return .unsupportedImageType("SVG") }
        let text = leadingText(start)
        let html = [
            "<!doctype html", "<html", "<head", "<body", "<title", "<meta", "<div", "<p>", "<!--",
        ]
        if html.contains(where: { text.hasPrefix($0) })
            || (text.hasPrefix("<") && text.contains("<html"))
        {
            return .notAnImage("HTML text")
        }
        if text.hasPrefix("<?xml") || text.hasPrefix("<") && isText(start) {
            return .notAnImage("XML text")
        }
        if (text.hasPrefix("{") || text.hasPrefix("[")) && isText(start) {
            return .notAnImage("JSON text")
        }
        if head.starts(with: Array("%PDF".utf8)) { return .notAnImage("PDF document") }
        if head.starts(with: [0x50, 0x4B, 0x03, 0x04]) { return .notAnImage("ZIP archive") }
        if head.starts(with: [0x1F, 0x8B]) { return .notAnImage("gzip data") }
        if head.count >= 8, String(decoding: head[4..<8], as: UTF8.self) == "ftyp" {
            return .notAnImage(
                "ISO media (brand \(String(decoding: head[8..<min(12, head.count)], as: UTF8.self)))")
        }
        if isText(start) {
            let snippet = String(decoding: start.prefix(32), as: UTF8.self)
                .replacingOccurrences(of: "\n", with: " ").trimmingCharacters(in: .whitespaces)
            return .notAnImage("plain text (\"\(snippet)\(start.count > 32 ? "…" : "")\")")
        }
        let hex = head.prefix(8).map { "0x" + String($0, radix: 16, uppercase: true).leftPadded(to: 2) }
        return .notAnImage("unrecognised bytes \(hex.joined(separator: " "))")
    }

    /// The first bytes as lowercase text, after a UTF-8 BOM and leading whitespace.
    private static func leadingText(_ bytes: [UInt8]) -> String {
        var slice = bytes[...]
        if slice.starts(with: [0xEF, 0xBB, 0xBF]) { slice = slice.dropFirst(3) }
        while let first = slice.first, [0x20, 0x09, 0x0A, 0x0D].contains(first) {
            slice = slice.dropFirst()
        }
        return String(decoding: slice, as: UTF8.self).lowercased()
    }

    /// Whether the bytes look like text: no NULs, few control characters.
    private static func isText(_ bytes: [UInt8]) -> Bool {
        guard !bytes.isEmpty else { return false }
        let controls = bytes.filter {
            $0 < 0x20 && ![0x09, 0x0A, 0x0D, 0x0C].contains($0) || $0 == 0x7F
        }.count
        return !bytes.contains(0) && controls * 20 <= bytes.count
    }

    private static func be32(_ bytes: [UInt8], _ offset: Int) -> Int {
        Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8
            | Int(bytes[offset + 3])
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
