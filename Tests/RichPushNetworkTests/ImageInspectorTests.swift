import Foundation
import RichPushCore
import Testing

@Suite("ImageInspector")
struct ImageInspectorTests {
    // MARK: Supported formats

    @Test("PNG fixture: size from IHDR, one frame, complete")
    func pngFixture() throws {
        let result = try ImageInspector.inspect(fileAt: fixturesRoot.appendingPathComponent("cat.png"))
        #expect(result == .image(ImageInfo(format: .png, width: 640, height: 480, frames: 1)))
    }

    @Test("JPEG baseline and progressive: size from the SOF marker")
    func jpegFixtures() throws {
        let baseline = try ImageInspector.inspect(fileAt: fixturesRoot.appendingPathComponent("photo.jpg"))
        #expect(baseline == .image(ImageInfo(format: .jpeg, width: 320, height: 240)))
        let progressive = try ImageInspector.inspect(
            fileAt: fixturesRoot.appendingPathComponent("photo-progressive.jpg"))
        #expect(
            progressive == .image(ImageInfo(format: .jpeg, width: 320, height: 240, frames: 1, isProgressive: true)))
    }

    @Test("animated GIF: logical screen size and every frame counted")
    func gifFixture() throws {
        let result = try ImageInspector.inspect(fileAt: fixturesRoot.appendingPathComponent("spinner.gif"))
        #expect(result == .image(ImageInfo(format: .gif, width: 64, height: 64, frames: 8)))
    }

    @Test("APNG: frames from acTL")
    func apngFrames() {
        var bytes = pngHeader(width: 10, height: 7)
        bytes += chunk("acTL", be32(3) + be32(0))
        bytes += chunk("IDAT", [0, 0, 0])
        bytes += chunk("IEND", [])
        #expect(ImageInspector.inspect(bytes) == .image(ImageInfo(format: .png, width: 10, height: 7, frames: 3)))
    }

    @Test("JPEG: fill bytes and APPn segments before SOF are walked, SOF1 is read")
    func jpegMarkerWalk() {
        var bytes: [UInt8] = [0xFF, 0xD8]
        bytes += [0xFF, 0xE1, 0x00, 0x06, 0x45, 0x78, 0x69, 0x66]  // APP1 "Exif"
        bytes += [0xFF, 0xFF, 0xFF, 0xDB, 0x00, 0x03, 0x00]  // fill bytes, then a tiny DQT
        bytes += [0xFF, 0xC1, 0x00, 0x0B, 0x08, 0x01, 0x2C, 0x00, 0xC8, 0x01, 0x01, 0x11, 0x00]  // SOF1 200x300
        bytes += [0xFF, 0xD9]
        #expect(ImageInspector.inspect(bytes) == .image(ImageInfo(format: .jpeg, width: 200, height: 300)))
    }

    // MARK: Truncated input

    @Test("PNG cut inside the header is not an image; cut after IHDR keeps the metadata")
    func truncatedPNG() throws {
        let png = Array(try fixtureBytes("cat.png"))
        for length in [2, 8, 16, 23] {
            let result = ImageInspector.inspect(png.prefix(length))
            guard case .notAnImage(let what) = result else {
                Issue.record("prefix \(length): \(result)")
                continue
            }
            #expect(what.hasPrefix("truncated PNG"))
        }
        let cutAfterHeader = ImageInspector.inspect(png.prefix(100))
        #expect(
            cutAfterHeader == .image(ImageInfo(format: .png, width: 640, height: 480, frames: 1, isTruncated: true)))
    }

    @Test("GIF cut mid-frame keeps the size and the frames seen; a cut header is not an image")
    func truncatedGIF() throws {
        let gif = Array(try fixtureBytes("spinner.gif"))
        guard case .image(let info) = ImageInspector.inspect(gif.prefix(gif.count / 2)) else {
            Issue.record("half a GIF should still be a GIF")
            return
        }
        #expect(info.format == .gif && info.width == 64 && info.height == 64)
        #expect(info.isTruncated)
        #expect((1..<8).contains(info.frames))
        #expect(ImageInspector.inspect(gif.prefix(10)) == .notAnImage("truncated GIF (10 bytes, header cut)"))
    }

    @Test("JPEG cut before its frame header is not an image")
    func truncatedJPEG() throws {
        let jpeg = Array(try fixtureBytes("photo.jpg"))
        guard case .notAnImage(let what) = ImageInspector.inspect(jpeg.prefix(40)) else {
            Issue.record("a JPEG without SOF must not be accepted")
            return
        }
        #expect(what.hasPrefix("truncated JPEG"))
        guard case .image(let info) = ImageInspector.inspect(jpeg.prefix(jpeg.count - 100)) else {
            Issue.record("a JPEG cut in its scan keeps its metadata")
            return
        }
        #expect(info.width == 320 && info.height == 240 && info.isTruncated)
    }

    @Test("every prefix of every fixture is inspected without trapping and never changes format")
    func everyPrefix() throws {
        for name in ["cat.png", "photo.jpg", "photo-progressive.jpg", "spinner.gif", "sample.webp", "sample.bmp"] {
            let bytes = Array(try fixtureBytes(name))
            let full = ImageInspector.inspect(bytes)
            for length in 0...min(bytes.count, 600) {
                let result = ImageInspector.inspect(bytes.prefix(length))
                if case .image(let info) = result, case .image(let fullInfo) = full {
                    #expect(info.format == fullInfo.format, "\(name) prefix \(length)")
                }
            }
        }
    }

    @Test("corrupt structures: zero sizes and absurd chunk lengths do not crash")
    func corrupt() {
        #expect(ImageInspector.inspect(pngHeader(width: 0, height: 5)) == .notAnImage("malformed PNG (0x5)"))
        var huge = pngHeader(width: 3, height: 3)
        huge += [0xFF, 0xFF, 0xFF, 0xF0] + Array("tEXt".utf8)
        #expect(
            ImageInspector.inspect(huge)
                == .image(ImageInfo(format: .png, width: 3, height: 3, frames: 1, isTruncated: true)))
        let gifWithGarbage = Array("GIF89a".utf8) + [4, 0, 4, 0, 0, 0, 0] + [0x99, 0x98]
        #expect(
            ImageInspector.inspect(gifWithGarbage)
                == .image(ImageInfo(format: .gif, width: 4, height: 4, frames: 1, isTruncated: true)))
    }

    // MARK: Recognised but unsupported

    @Test(
        "recognised image types iOS does not show",
        arguments: [
            ("sample.webp", "WebP"), ("sample.bmp", "BMP"), ("sample.tiff", "TIFF"), ("sample.heic", "HEIC"),
            ("drawing.svg", "SVG"),
        ])
    func unsupportedFixtures(name: String, type: String) throws {
        #expect(
            try ImageInspector.inspect(fileAt: fixturesRoot.appendingPathComponent(name)) == .unsupportedImageType(type)
        )
    }

    @Test("unsupported types from bytes: SVG variants, AVIF, HEIF, ICO")
    func unsupportedBytes() {
        #expect(ImageInspector.inspect(Array("  \n<svg xmlns='x'/>".utf8)) == .unsupportedImageType("SVG"))
        #expect(ImageInspector.inspect([0xEF, 0xBB, 0xBF] + Array("<svg/>".utf8)) == .unsupportedImageType("SVG"))
        let longProlog = "<?xml version=\"1.0\"?>\n<!-- " + String(repeating: "x", count: 200) + " -->\n<svg/>"
        #expect(ImageInspector.inspect(Array(longProlog.utf8)) == .unsupportedImageType("SVG"))
        #expect(ImageInspector.inspect(ftyp("avif")) == .unsupportedImageType("AVIF"))
        #expect(ImageInspector.inspect(ftyp("mif1")) == .unsupportedImageType("HEIF"))
        #expect(ImageInspector.inspect([0, 0, 1, 0, 1, 0, 16, 16, 0, 0]) == .unsupportedImageType("ICO"))
    }

    // MARK: Not an image

    @Test("non-images are described for people")
    func notImages() throws {
        #expect(ImageInspector.inspect([UInt8]()) == .notAnImage("empty body"))
        #expect(ImageInspector.inspect(Array(try fixtureBytes("page.html"))) == .notAnImage("HTML text"))
        #expect(ImageInspector.inspect(Array("<html><body>502</body></html>".utf8)) == .notAnImage("HTML text"))
        #expect(ImageInspector.inspect(Array("{\"error\": \"nope\"}".utf8)) == .notAnImage("JSON text"))
        #expect(ImageInspector.inspect(Array("%PDF-1.7 ...".utf8)) == .notAnImage("PDF document"))
        #expect(ImageInspector.inspect(ftyp("isom")) == .notAnImage("ISO media (brand isom)"))
        guard case .notAnImage(let text) = ImageInspector.inspect(Array(try fixtureBytes("not-an-image.txt"))) else {
            Issue.record("text is not an image")
            return
        }
        #expect(text.hasPrefix("plain text (\"This is not an image."))
        #expect(
            ImageInspector.inspect([0x00, 0x01, 0x02, 0xAB, 0xFF, 0x10, 0x20, 0x30, 0x40])
                == .notAnImage("unrecognised bytes 0x00 0x01 0x02 0xAB 0xFF 0x10 0x20 0x30"))
        #expect(ImageInspector.inspect(Array("BM just text".utf8)) != .unsupportedImageType("BMP"))
    }

    @Test("a 10 MB file is inspected through bounded reads")
    func largeFile() throws {
        let directory = try makeTemporaryDirectory("inspector")
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("big.gif")
        var data = try fixtureBytes("spinner.gif")
        data.removeLast()  // drop the trailer, then append 10 MB of zeros (garbage after the frames)
        data.append(Data(count: 10 * 1024 * 1024))
        try data.write(to: url)
        guard case .image(let info) = try ImageInspector.inspect(fileAt: url) else {
            Issue.record("still a GIF")
            return
        }
        #expect(info.frames == 8 && info.width == 64)
        #expect(FileByteSource.maxReadLength <= 64 * 1024)
    }

    // MARK: Helpers

    private func be32(_ value: Int) -> [UInt8] {
        [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    private func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        be32(data.count) + Array(type.utf8) + data + [0, 0, 0, 0]
    }

    private func pngHeader(width: Int, height: Int) -> [UInt8] {
        [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", be32(width) + be32(height) + [8, 2, 0, 0, 0])
    }

    private func ftyp(_ brand: String, compatible: String = "mp41") -> [UInt8] {
        be32(24) + Array("ftyp".utf8) + Array(brand.utf8) + be32(0) + Array(brand.utf8) + Array(compatible.utf8)
            + be32(8) + Array("free".utf8)
    }
}
