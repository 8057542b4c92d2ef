import Foundation
import RichPushCodecs
import RichPushCore
import RichPushTestSupport
import Testing

/// `verify` (the attachment file, read by the codec in chunks), `check` (bytes, no pixels kept) and `decode`
/// (bytes, every pixel) are three roads to one verdict: a person reading a report must never see an image pass
/// one and fail another, or fail with different words.
@Suite("ImageDecoder: verify(file), check(bytes) and decode(bytes) agree; verify does not hold the file")
struct ImageCheckTests {
    let decoder = ImageDecoder()

    @Test("every PNG, JPEG and GIF fixture gets one verdict from the file, the check and the decode")
    func fixturesAgree() async throws {
        let images = try fixtureImages()
        #expect(images.count >= 8, "found \(images.map(\.name))")
        let directory = try TemporaryFolder()
        for image in images {
            let verdicts = try await verdicts(image.bytes, format: image.format, name: image.name, in: directory)
            #expect(verdicts.agree, "\(image.name): \(verdicts)")
            if image.name == "bomb.png" {
                #expect(
                    verdicts.file
                        == .notDecoded("the PNG is 100000x100000 (10000 megapixels), over the 50-megapixel budget"))
            } else {
                #expect(verdicts.file == .decoded, "\(image.name)")
            }
        }
    }

    @Test(
        "cut short or with a byte flipped, a file gets the same verdict and sentence as its bytes",
        arguments: ["cat.png", "interlaced.png", "photo.jpg", "photo-progressive.jpg", "spinner.gif"])
    func damagedAgree(name: String) async throws {
        let whole = try fixture(name)
        let format = try #require(ImageInspector.inspect(whole).info?.format)
        let directory = try TemporaryFolder()
        var failures = Set<String>()
        for variant in damaged(whole) {
            let verdicts = try await verdicts(variant.bytes, format: format, name: name, in: directory)
            #expect(verdicts.agree, "\(name) \(variant.what): \(verdicts)")
            if case .notDecoded(let sentence) = verdicts.file { failures.insert(sentence) }
        }
        // The cuts inside the image data are caught, in the usual words.
        #expect(failures.contains("the \(format.rawValue.uppercased()) data ends early"), "\(failures)")
    }

    @Test(
        "PNG layouts the RGBA transforms used to hide (16-bit, palette, grey+alpha, 1-bit, interlaced 16-bit RGBA) agree whole and damaged",
        arguments: TestPNG.allCases)
    func pngLayoutsAgree(kind: TestPNG) async throws {
        let png = try kind.bytes()
        let directory = try TemporaryFolder()
        let whole = try await verdicts(png, format: .png, name: "\(kind).png", in: directory)
        #expect(whole.agree && whole.file == .decoded, "\(whole)")
        // Decoding still turns the file's layout into 8-bit RGBA.
        let image = try decoder.decode(png)
        #expect(image.width == kind.width && image.height == kind.height)
        #expect(rgba(image.pixel(x: 0, y: 0)) == kind.firstPixel)
        var failures = Set<String>()
        for variant in damaged(png) {
            let verdicts = try await verdicts(variant.bytes, format: .png, name: "\(kind).png", in: directory)
            #expect(verdicts.agree, "\(kind) \(variant.what): \(verdicts)")
            if case .notDecoded(let sentence) = verdicts.file { failures.insert(sentence) }
        }
        #expect(failures.contains("the PNG data ends early"), "\(failures)")
        #expect(failures.contains { $0.hasPrefix("the PNG data is corrupt (") }, "\(failures)")
    }

    @Test("an empty file gets the verdict check gives empty bytes in its format", arguments: ImageFormat.allCases)
    func emptyFile(format: ImageFormat) async throws {
        let directory = try TemporaryFolder()
        let file = directory.url.appendingPathComponent("empty")
        try Data().write(to: file)
        let error = try #require(throws: ImageDecodingError.self) { try decoder.check([], format: format) }
        #expect(error.kind == .endsEarly || error.kind == .corrupt, "\(error)")
        #expect(await decoder.verify(file, format: format) == .notDecoded(error.sentence))
    }

    @Test("a directory or a missing path is an unreadable file, not a codec error")
    func unreadableFiles() async throws {
        let directory = try TemporaryFolder()
        let folder = directory.url.appendingPathComponent("folder.png", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        #expect(
            await decoder.verify(folder, format: .png) == .notDecoded("the image file could not be read (folder.png)"))
        let gone = directory.url.appendingPathComponent("gone.gif")
        #expect(await decoder.verify(gone, format: .gif) == .notDecoded("the image file could not be read (gone.gif)"))
    }

    /// The peak RSS of a process only ever rises, and the tests of this process run in parallel: another test
    /// decoding a big image at the same moment would raise it, and one that already raised it higher would hide
    /// what verify costs. So the measurement runs in a child process of its own (an exit test), where nothing
    /// else runs. The file is written by this process, a chunk at a time. Reading the whole 9 MB file (twice, as
    /// `Data` then `[UInt8]`, which verify used to do) would raise the child's peak by 9 to 18 MB.
    @Test("verifying a 9 MB PNG raises the peak RSS by at most 3 MB, in a process of its own")
    func verifyMemory() async throws {
        let directory = try TemporaryFolder()
        let path = directory.url.appendingPathComponent("big.png").path
        let size = try writeBigPNG(to: path)
        #expect(size > 9_000_000, "the file is \(size) bytes")
        // The child says how much the peak grew and the verdict ("901120 decoded"); the bound is checked here, so a
        // failure shows the figure.
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            [path = path as String] in
            // A small verify first, so what any first call costs (Foundation's file APIs, the codecs' tables) is in
            // the peak before the one measured.
            let warmUp = await ImageDecoder().verify(fixturesRoot.appendingPathComponent("cat.png"), format: .png)
            guard warmUp == .decoded, let before = PeakMemory.bytes() else {
                FileHandle.standardError.write(Data("warm-up \(warmUp), or no /proc/self/status\n".utf8))
                exit(2)
            }
            let verdict = await ImageDecoder().verify(URL(fileURLWithPath: path), format: .png)
            let after = PeakMemory.bytes() ?? Int.max
            FileHandle.standardError.write(Data("\(after - before) \(verdict)\n".utf8))
            exit(0)
        }
        let words = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        let grew = words.split(separator: " ").first.flatMap { Int($0) }
        #expect(words.hasSuffix(" decoded\n"), "the child said: \(words)")
        #expect(
            (grew ?? Int.max) <= 3 * 1024 * 1024,
            "verifying the \(size)-byte file raised the peak RSS by \(grew.map(String.init) ?? "?") bytes")
    }

    // MARK: Helpers

    struct Verdicts: CustomStringConvertible {
        var file: DecodeVerdict
        var check: DecodeVerdict
        var decode: DecodeVerdict
        var agree: Bool { file == check && check == decode }
        var description: String { "file \(file), check \(check), decode \(decode)" }
    }

    /// The three verdicts on `bytes`: written to a file named `name` and verified, checked, decoded.
    func verdicts(_ bytes: [UInt8], format: ImageFormat, name: String, in directory: TemporaryFolder) async throws
        -> Verdicts
    {
        let file = directory.url.appendingPathComponent(name)
        try Data(bytes).write(to: file)
        let verified = await decoder.verify(file, format: format)
        let checked: DecodeVerdict
        do {
            try decoder.check(bytes, format: format)
            checked = .decoded
        } catch {
            checked = .notDecoded(error.sentence)
        }
        let decoded: DecodeVerdict
        do {
            _ = try decoder.decode(bytes)
            decoded = .decoded
        } catch {
            decoded = .notDecoded(error.sentence)
        }
        return Verdicts(file: verified, check: checked, decode: decoded)
    }

    /// Cuts at several places (the header, inside the image data, just before the end) and one byte flipped in
    /// the middle. Cuts keep the 8-byte signature so `decode` still recognises the format.
    func damaged(_ whole: [UInt8]) -> [(what: String, bytes: [UInt8])] {
        let cuts = [
            12, 30, 100, whole.count / 4, whole.count / 2, whole.count * 3 / 4, whole.count - 20, whole.count - 1,
        ]
        var variants = cuts.filter { $0 >= 8 && $0 < whole.count }.map { ("cut at \($0)", Array(whole.prefix($0))) }
        var flipped = whole
        flipped[whole.count / 2] ^= 0x5A
        variants.append(("byte \(whole.count / 2) flipped", flipped))
        return variants
    }

    /// Every file under payloads/images whose bytes are PNG, JPEG or GIF, with or without an extension.
    func fixtureImages() throws -> [(name: String, format: ImageFormat, bytes: [UInt8])] {
        let files = FileManager.default.enumerator(at: fixturesRoot, includingPropertiesForKeys: [.isRegularFileKey])
        var images: [(name: String, format: ImageFormat, bytes: [UInt8])] = []
        while let file = files?.nextObject() as? URL {
            guard (try file.resourceValues(forKeys: [.isRegularFileKey])).isRegularFile == true else { continue }
            let bytes = try [UInt8](Data(contentsOf: file))
            if let format = ImageInspector.inspect(bytes).info?.format {
                images.append((file.lastPathComponent, format, bytes))
            }
        }
        return images.sorted { $0.name < $1.name }
    }
}

extension ImageInspection {
    fileprivate var info: ImageInfo? {
        if case .image(let info) = self { return info }
        return nil
    }
}

// MARK: - PNGs built byte by byte

/// Small PNGs in layouts the committed fixtures do not have, with zlib "stored" (uncompressed) deflate blocks.
enum TestPNG: String, CaseIterable, Sendable, CustomStringConvertible {
    case rgb16, palette, grayAlpha, gray1, interlacedRGBA16

    var description: String { rawValue }
    var width: Int { 37 }
    var height: Int { 23 }

    /// Colour type, bit depth, interlace method.
    var layout: (colorType: UInt8, bitDepth: UInt8, interlace: UInt8) {
        switch self {
        case .rgb16: (2, 16, 0)
        case .palette: (3, 8, 0)
        case .grayAlpha: (4, 8, 0)
        case .gray1: (0, 1, 0)
        case .interlacedRGBA16: (6, 16, 1)
        }
    }

    var bitsPerPixel: Int {
        let channels = [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][Int(layout.colorType)] ?? 1
        return channels * Int(layout.bitDepth)
    }

    /// Four palette entries, the last one half transparent.
    static let paletteEntries: [UInt8] = [10, 20, 30, 200, 100, 50, 0, 255, 0, 1, 2, 3]
    static let paletteAlpha: [UInt8] = [255, 255, 255, 128]

    /// Sample bytes of a row: pixel index 0 of row 0 is all zeros but one marker, the rest a pattern.
    func sample(_ i: Int, row: Int) -> UInt8 {
        switch self {
        case .palette: UInt8((i + row) % 4)
        default: UInt8(truncatingIfNeeded: i &* 7 &+ row &* 13 &+ 1)
        }
    }

    /// What decoding gives for the pixel at (0, 0), worked out from `sample` by hand.
    var firstPixel: [UInt8] {
        switch self {
        case .rgb16: [1, 15, 29, 255]  // samples 1,8 / 15,22 / 29,36: the high bytes
        case .palette: [10, 20, 30, 255]  // index 0
        case .grayAlpha: [1, 1, 1, 8]  // grey 1, alpha 8
        case .gray1: [0, 0, 0, 255]  // the top bit of 0b0000_0001 is 0: black
        case .interlacedRGBA16: [1, 15, 29, 43]  // pass 1 holds (0, 0): samples 1,8 / 15,22 / 29,36 / 43,50
        }
    }

    func bytes() throws -> [UInt8] {
        var raw: [UInt8] = []
        for (passWidth, passHeight) in passes() where passWidth > 0 && passHeight > 0 {
            let rowBytes = (passWidth * bitsPerPixel + 7) / 8
            for y in 0..<passHeight {
                raw.append(0)  // filter: none
                for i in 0..<rowBytes { raw.append(sample(i, row: y)) }
            }
        }
        var chunks: [(String, [UInt8])] = []
        if self == .palette { chunks = [("PLTE", Self.paletteEntries), ("tRNS", Self.paletteAlpha)] }
        var png: [UInt8] = []
        try writePNG(
            width: width, height: height, layout: layout, chunks: chunks, rawCount: raw.count,
            raw: { offset, count in Array(raw[offset..<offset + count]) }, write: { png += $0 })
        return png
    }

    /// The size of each Adam7 pass, or the whole image when not interlaced.
    func passes() -> [(Int, Int)] {
        guard layout.interlace == 1 else { return [(width, height)] }
        let starts = [(0, 0), (4, 0), (0, 4), (2, 0), (0, 2), (1, 0), (0, 1)]
        let steps = [(8, 8), (8, 8), (4, 8), (4, 4), (2, 4), (2, 2), (1, 2)]
        return zip(starts, steps).map { start, step in
            ((width - start.0 + step.0 - 1) / step.0, (height - start.1 + step.1 - 1) / step.1)
        }
    }
}

/// Writes a PNG a piece at a time (at most one 64 KB IDAT chunk in memory): signature, IHDR, `chunks`, then
/// `rawCount` bytes of filtered scanlines from `raw(offset, count)` as a zlib stream of stored deflate blocks,
/// one block per IDAT chunk, and IEND.
func writePNG(
    width: Int, height: Int, layout: (colorType: UInt8, bitDepth: UInt8, interlace: UInt8),
    chunks: [(String, [UInt8])], rawCount: Int, raw: (Int, Int) throws -> [UInt8], write: ([UInt8]) throws -> Void
) throws {
    func be32(_ value: Int) -> [UInt8] {
        [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
    func chunk(_ type: String, _ data: [UInt8]) throws {
        let typed = Array(type.utf8) + data
        try write(be32(data.count) + typed + be32(Int(CRC32.checksum(typed))))
    }
    try write([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    try chunk(
        "IHDR", be32(width) + be32(height) + [layout.bitDepth, layout.colorType, 0, 0, layout.interlace])
    for (type, data) in chunks { try chunk(type, data) }
    var adler = Adler32()
    var offset = 0
    var first = true
    repeat {
        let count = min(65535, rawCount - offset)
        let block = try raw(offset, count)
        adler.update(block)
        offset += count
        let last = offset == rawCount
        var data: [UInt8] = first ? [0x78, 0x01] : []  // zlib header: deflate, 32 KB window, no dictionary
        data += [last ? 1 : 0, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8(~count >> 8 & 0xFF)]
        data += block
        if last { data += be32(Int(adler.value)) }
        try chunk("IDAT", data)
        first = false
    } while offset < rawCount
    try chunk("IEND", [])
}

/// A 1750x1750 RGB PNG of stored blocks (about 9.2 MB) at `path`, written 64 KB at a time. Returns its size.
func writeBigPNG(to path: String) throws -> Int {
    let width = 1750, height = 1750
    let rowBytes = 1 + width * 3
    guard FileManager.default.createFile(atPath: path, contents: nil) else { throw CocoaError(.fileWriteUnknown) }
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    defer { try? handle.close() }
    var size = 0
    try writePNG(
        width: width, height: height, layout: (2, 8, 0), chunks: [], rawCount: rowBytes * height,
        raw: { offset, count in
            (offset..<offset + count).map { index in
                let column = index % rowBytes
                return column == 0 ? 0 : UInt8(truncatingIfNeeded: column &+ index / rowBytes)
            }
        },
        write: { bytes in
            try handle.write(contentsOf: bytes)
            size += bytes.count
        })
    return size
}

/// CRC-32 as PNG chunks use it.
enum CRC32 {
    static let table: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    static func checksum(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        bytes.withUnsafeBufferPointer { buffer in
            for byte in buffer { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        }
        return crc ^ 0xFFFF_FFFF
    }
}

/// The zlib stream's checksum of the uncompressed data.
struct Adler32 {
    var a: UInt32 = 1
    var b: UInt32 = 0
    var value: UInt32 { b << 16 | a }

    mutating func update(_ bytes: [UInt8]) {
        for byte in bytes {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
    }
}
