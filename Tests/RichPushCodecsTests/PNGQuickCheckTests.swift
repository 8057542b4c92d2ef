import CImageCodecs
import Foundation
import RichPushCodecs
import RichPushCore
import RichPushTestSupport
import Testing

/// The quick PNG check (libdeflate) may only ever say yes where libpng, reading every row, says yes too: a quick yes
/// that libpng would refuse would report a broken attachment as decoded. These tests compare the two on thousands
/// of damaged files, most with their CRCs (and where needed their zlib checksum) mended so that the damage reaches
/// the checks behind the CRCs.
@Suite("Quick PNG check: a yes only where libpng says yes, and a yes for the common pictures")
struct PNGQuickCheckTests {
    static let pixels: UInt64 = 50_000_000
    static let rawBytes = 8 << 20

    func quick(_ bytes: [UInt8]) -> Bool {
        rp_png_quick_check(bytes, bytes.count, Self.pixels, Self.rawBytes) == 1
    }

    /// libpng's verdict when it checks every row (what `verify` asked before the quick check existed).
    func libpngAccepts(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { buffer in
            guard
                let codec = rp_codec_open(
                    Int32(RP_CODEC_PNG), buffer.baseAddress, buffer.count, Self.pixels, Self.pixels)
            else { return false }
            defer { rp_codec_close(codec) }
            guard Int(rp_codec_status(codec)) == RP_CODEC_OK else { return false }
            var delay: UInt32 = 0
            return Int(rp_codec_next_frame(codec, nil, 0, 0, &delay)) == RP_CODEC_OK
        }
    }

    @Test("the fixtures and built layouts that are not interlaced get a quick yes; interlaced and the bomb do not")
    func commonPictures() throws {
        let cat = try fixture("cat.png")
        #expect(quick(cat))
        for kind in TestPNG.allCases {
            #expect(quick(try kind.bytes()) == (kind.layout.interlace == 0), "\(kind)")
        }
        #expect(!quick(try fixture("interlaced.png")))
        #expect(!quick(try fixture("bomb.png")))
        #expect(libpngAccepts(cat), "the oracle accepts what it should")
    }

    @Test("verify and check accept a small PNG and refuse one the quick check leaves undecided in libpng's words")
    func verdictsThroughTheDecoder() async throws {
        let decoder = ImageDecoder()
        let directory = try TemporaryFolder()
        let good = directory.url.appendingPathComponent("good.png")
        try Data(try fixture("cat.png")).write(to: good)
        #expect(await decoder.verify(good, format: .png) == .decoded)
        // A filter byte of 5 in row 3, with the zlib checksum and CRCs right: only the rows say it is broken.
        let broken = try TestPNG.rgb16.bytes(filterOfRow: (3, 5))
        #expect(!quick(broken))
        let file = directory.url.appendingPathComponent("broken.png")
        try Data(broken).write(to: file)
        let error = try #require(throws: ImageDecodingError.self) { try decoder.check(broken) }
        #expect(error.sentence.hasPrefix("the PNG data is corrupt ("), "\(error.sentence)")
        #expect(await decoder.verify(file, format: .png) == .notDecoded(error.sentence))
    }

    /// A grey image whose zlib header declares a 256-byte window while its data reaches about 1,000 bytes back
    /// (CRCs and checksum right): libpng, inflating row by row through that window, refuses it; libdeflate alone,
    /// holding the whole output, would not notice.
    static let backReferenceBeyondWindow =
        "iVBORw0KGgoAAAANSUhEUgAAA+gAAAAUCAAAAAA7cEjHAAABuUlEQVQIHe3T51oOAACG4a80KBKaKCMZLZUUKiMrVLLSoLSEdpkN"
        + "oWQWym4gys5oS4tokCYNUUbLJg1+dRxdPYdwX8/7CobJjJk4Tdtg7mKzNbaOW7x3Bocdi7pw+Xpy2uOnpZV1Ta3f/wrEpWTHqqjp"
        + "zJq3xHytndNWn117Dx6Pvnjlxr30nMIXVfXNbT+6hAYPl1OapK47e/5Si3UbnLf57g4Jjzgdk3Dzfkbus5fVDR/af3YLD5GWV1bV"
        + "mDFngelKq40u7n579h2KPBN79daDzLznZTVvP3b86hkkMUJh3GRNPUOTZZbr7V09/AP2Hz5xNu7a7YdZ+UWvXjd++vK7V0RypOL4"
        + "KVozjRYuX2XtsNlze+CBIyfPxSfeSXlUUFz+5t3nr3/+iQ4dNXrC1On6xotWrLbZ5Oa1Iyj06Knzl5LupmY/Kamofd/yrfO/GHTo"
        + "A4YuIDl06Byd5NChc3SSQ4fO0UkOHTpHJzl06Byd5NChc3SSQ4fO0UkOHTpHZ+3QOTrJoUPn6CSHDp2jkxw6dI5OcujQOTrJoUPn"
        + "6CSHDp2jkxw6dI5OcugcneTQoXN0kkOH3l/pfdGrFX98onZbAAAAAElFTkSuQmCC"

    @Test("a back-reference beyond the window the zlib header declares is left to libpng, which refuses it")
    func backReferenceBeyondTheDeclaredWindow() throws {
        let png = try #require(Data(base64Encoded: Self.backReferenceBeyondWindow).map { [UInt8]($0) })
        #expect(!libpngAccepts(png))
        #expect(!quick(png))
    }

    @Test(
        "a quick yes is never a libpng no, over thousands of damaged files",
        arguments: ["cat.png", "rgb16", "palette", "grayAlpha", "gray1"])
    func neverYesWhereLibpngSaysNo(seed name: String) throws {
        let original: [UInt8] =
            if let kind = TestPNG(rawValue: name) { try kind.bytes() } else { try fixture(name) }
        var random = SplitMix64(seed: name.utf8.reduce(UInt64(original.count)) { $0 &* 31 &+ UInt64($1) })
        let count = name == "cat.png" ? 600 : 1500
        var quickYes = 0
        var libpngNo = 0
        // Refusals among the variants whose CRCs were mended: damage that reached the checks behind the CRCs.
        var mendedRefused = 0
        var wrong: [String] = []
        for index in 0..<count {
            let (what, variant) = Mutation.apply(to: original, random: &random, index: index)
            let libpng = libpngAccepts(variant)
            if !libpng { libpngNo += 1 }
            if !libpng, (2...10).contains(index % 12) { mendedRefused += 1 }
            if quick(variant) {
                quickYes += 1
                if !libpng { wrong.append(what) }
            }
        }
        #expect(wrong.isEmpty, "quick yes, libpng no: \(wrong.prefix(10))")
        // The comparison has teeth: some damage gets past the CRCs and is refused, and some is harmless.
        #expect(libpngNo > count / 10, "\(libpngNo) of \(count) refused by libpng")
        #expect(mendedRefused > count / 20, "\(mendedRefused) variants with mended CRCs refused by libpng")
        #expect(quickYes > count / 20, "\(quickYes) of \(count) quick yes")
    }
}

// MARK: - Damage

/// A PNG cut into its chunks, changed, and put together again with every CRC right (unless asked otherwise).
enum Mutation {
    typealias Chunk = (type: [UInt8], data: [UInt8])

    static func chunks(of png: [UInt8]) -> [Chunk] {
        var chunks: [Chunk] = []
        var offset = 8
        while offset + 12 <= png.count {
            let length =
                Int(png[offset]) << 24 | Int(png[offset + 1]) << 16 | Int(png[offset + 2]) << 8
                | Int(png[offset + 3])
            guard offset + 12 + length <= png.count else { break }
            chunks.append((Array(png[offset + 4..<offset + 8]), Array(png[offset + 8..<offset + 8 + length])))
            offset += 12 + length
        }
        return chunks
    }

    static func assemble(_ chunks: [Chunk]) -> [UInt8] {
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        for chunk in chunks {
            let length = chunk.data.count
            png += [
                UInt8(length >> 24 & 0xFF), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF),
            ]
            let typed = chunk.type + chunk.data
            let crc = CRC32.checksum(typed)
            png += typed + [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)]
        }
        return png
    }

    static func type(_ name: String) -> [UInt8] { Array(name.utf8) }

    /// One kind of damage per index, in turn, at random places.
    static func apply(to png: [UInt8], random: inout SplitMix64, index: Int) -> (String, [UInt8]) {
        var chunks = chunks(of: png)
        let idats = chunks.indices.filter { chunks[$0].type == type("IDAT") }
        switch index % 12 {
        case 0:  // any byte, CRCs left as they are
            var bytes = png
            let at = random.below(bytes.count)
            bytes[at] ^= UInt8(1 + random.below(255))
            return ("byte \(at) changed", bytes)
        case 1:
            let at = 8 + random.below(png.count - 8)
            return ("cut at \(at)", Array(png.prefix(at)))
        case 2, 3:  // a byte of the image data, CRC mended: the zlib stream or the rows are wrong
            let chunk = idats[random.below(idats.count)]
            guard !chunks[chunk].data.isEmpty else { return ("unchanged", png) }
            let at = random.below(chunks[chunk].data.count)
            chunks[chunk].data[at] ^= UInt8(1 + random.below(255))
            return ("IDAT \(chunk) byte \(at) changed", assemble(chunks))
        case 4:  // a header field
            let at = random.below(13)
            let values: [UInt8] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 16, 255]
            chunks[0].data[at] =
                at < 8 ? chunks[0].data[at] ^ UInt8(1 << random.below(8)) : values[random.below(values.count)]
            return ("IHDR byte \(at) = \(chunks[0].data[at])", assemble(chunks))
        case 5:
            let removed = random.below(chunks.count)
            let name = String(decoding: chunks[removed].type, as: UTF8.self)
            chunks.remove(at: removed)
            return ("chunk \(removed) \(name) removed", assemble(chunks))
        case 6:
            let copied = random.below(chunks.count)
            chunks.insert(chunks[copied], at: random.below(chunks.count + 1))
            return ("chunk \(copied) copied", assemble(chunks))
        case 7:
            guard chunks.count > 2 else { return ("unchanged", png) }
            let at = 1 + random.below(chunks.count - 2)
            chunks.swapAt(at, at + 1)
            return ("chunks \(at) and \(at + 1) swapped", assemble(chunks))
        case 8:  // a chunk inserted somewhere
            let inserts: [Chunk] = [
                (type("abCd"), [1, 2, 3]), (type("ABCD"), [1, 2, 3]), (type("IEND"), []), (type("IDAT"), []),
                (type("tRNS"), [0, 1]), (type("PLTE"), [1, 2, 3]), (type("gAMA"), [0, 0, 0xB1, 0x8F]),
                (type("sRGB"), [9]), (type("a1cd"), []), (type("tEXt"), Array(repeating: 65, count: 70_000)),
                (type("iCCP"), [65, 0, 0, 1, 2, 3]), (type("bKGD"), [0]), (type("IHDR"), chunks[0].data),
            ]
            let chunk = inserts[random.below(inserts.count)]
            let at = 1 + random.below(chunks.count)
            chunks.insert(chunk, at: at)
            return ("\(String(decoding: chunk.type, as: UTF8.self)) inserted at \(at)", assemble(chunks))
        case 9:  // bytes after the zlib stream, inside the last IDAT
            let last = idats[idats.count - 1]
            chunks[last].data += Array(repeating: UInt8(random.below(256)), count: 1 + random.below(8))
            return ("bytes after the zlib stream", assemble(chunks))
        case 10:  // the image data cut short, or split differently
            let last = idats[idats.count - 1]
            let keep = random.below(chunks[last].data.count + 1)
            chunks[last].data = Array(chunks[last].data.prefix(keep))
            return ("last IDAT cut to \(keep)", assemble(chunks))
        default:  // an ancillary chunk made critical, or its CRC broken
            var bytes = assemble(chunks)
            let at = random.below(bytes.count - 8) + 8
            bytes[at] = bytes[at] ^ 0x20
            return ("byte \(at) case flipped", bytes)
        }
    }
}

extension TestPNG {
    /// The layout's PNG with row `filterOfRow.0`'s filter byte set to `filterOfRow.1` (zlib checksum and CRCs right).
    func bytes(filterOfRow: (Int, UInt8)) throws -> [UInt8] {
        let rowBytes = (width * bitsPerPixel + 7) / 8
        var raw: [UInt8] = []
        for y in 0..<height {
            raw.append(y == filterOfRow.0 ? filterOfRow.1 : 0)
            for i in 0..<rowBytes { raw.append(sample(i, row: y)) }
        }
        var png: [UInt8] = []
        try writePNG(
            width: width, height: height, layout: layout, chunks: [], rawCount: raw.count,
            raw: { offset, count in Array(raw[offset..<offset + count]) }, write: { png += $0 })
        return png
    }
}
