import Foundation
import Testing
// `@testable` for the pixels; a plain `import UIKit` beside `import Testing` would also ask for swift-testing's
// cross-import overlay `_Testing_UIKit`, which Linux's toolchain declares but does not ship.
@testable import UIKit

/// The images in payloads/images, which the fixture CDN serves.
private func fixture(_ name: String) throws -> Data {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    return try Data(contentsOf: root.appendingPathComponent("payloads/images/\(name)"))
}

/// The premultiplied RGBA of pixel (x, y) of `image`.
private func pixel(_ image: UIImage, _ x: Int, _ y: Int) throws -> [Int] {
    let pixels = try #require(image.pixels)
    let p = pixels.pixel(x: x, y: y)
    return [Int(p.red), Int(p.green), Int(p.blue), Int(p.alpha)]
}

/// An image drawn at scale 1: `width` x `height` points, each filled by `color(x, y)`.
private func drawn(_ width: Int, _ height: Int, opaque: Bool = false, _ color: (Int, Int) -> UIColor) -> UIImage {
    let format = UIGraphicsImageRendererFormat()
    format.scale = 1
    format.opaque = opaque
    return UIGraphicsImageRenderer(size: CGSize(width: width, height: height), format: format).image { context in
        for y in 0..<height {
            for x in 0..<width {
                color(x, y).setFill()
                context.fill(CGRect(x: x, y: y, width: 1, height: 1))
            }
        }
    }
}

@Suite("UIKit on Linux: UIImage, PNG and JPEG, drawing and resizing", .serialized)
struct UIKitTests {
    @Test("a PNG is measured from its header and its pixels survive pngData() byte for byte")
    func pngRoundTrip() throws {
        let image = try #require(UIImage(data: try fixture("cat.png")))
        #expect(image.size == CGSize(width: 640, height: 480) && image.scale == 1)
        let png = try #require(image.pngData())
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        let again = try #require(UIImage(data: png))
        #expect(again.pixels == image.pixels, "PNG is lossless")
        // cat.png is RGB: the PNG written back has no alpha channel (colour type 2).
        #expect(png[25] == 2)
    }

    @Test("a JPEG decodes to its size, and jpegData gives a JPEG of the same picture")
    func jpegRoundTrip() throws {
        for name in ["photo.jpg", "photo-progressive.jpg"] {
            let image = try #require(UIImage(data: try fixture(name)))
            #expect(image.size == CGSize(width: 320, height: 240))
            let jpeg = try #require(image.jpegData(compressionQuality: 0.9))
            #expect(jpeg.starts(with: [0xFF, 0xD8, 0xFF]))
            let again = try #require(UIImage(data: jpeg))
            #expect(again.size == image.size)
            let a = try #require(image.pixels).pixels
            let b = try #require(again.pixels).pixels
            let difference = zip(a, b).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) } / a.count
            #expect(difference < 6, "mean difference \(difference) per channel after re-encoding at 0.9")
            let small = try #require(image.jpegData(compressionQuality: 0.1))
            #expect(small.count < jpeg.count, "a lower quality gives fewer bytes")
        }
    }

    @Test("an interlaced PNG with alpha decodes; alpha is kept in pngData")
    func interlacedPNG() throws {
        let image = try #require(UIImage(data: try fixture("interlaced.png")))
        #expect(image.size == CGSize(width: 16, height: 16))
        let png = try #require(image.pngData())
        #expect(png[25] == 6, "RGBA in, RGBA out")
        #expect(UIImage(data: png)?.pixels == image.pixels)
    }

    @Test("a GIF gives its first frame, as UIImage(data:) shows a GIF (checked against giflib)")
    func gifFirstFrame() throws {
        let image = try #require(UIImage(data: try fixture("spinner.gif")))
        #expect(image.size == CGSize(width: 64, height: 64))
        // The spinner's first frame: a dark spoke on the right, light grey ones elsewhere, on white.
        #expect(try pixel(image, 56, 32) == [30, 30, 30, 255])
        #expect(try pixel(image, 32, 8) == [200, 200, 200, 255] && pixel(image, 0, 0) == [255, 255, 255, 255])
        let png = try #require(image.pngData())
        #expect(UIImage(data: png)?.pixels == image.pixels)
    }

    @Test("no image: not an image, a format richpush does not read, a decode bomb, an empty image")
    func refusals() throws {
        #expect(UIImage(data: Data("hello".utf8)) == nil)
        #expect(UIImage(data: try fixture("sample.webp")) == nil, "WebP is not read under richpush")
        // 100000 x 100000 in 274 bytes: refused from the header, before any pixel buffer exists.
        #expect(UIImage(data: try fixture("bomb.png")) == nil)
        #expect(UIImage().pngData() == nil && UIImage().jpegData(compressionQuality: 1) == nil)
        #expect(UIImage().size == .zero)
    }

    @Test("a renderer draws at the main screen's scale (3) unless told otherwise")
    func rendererScale() throws {
        let image = UIGraphicsImageRenderer(size: CGSize(width: 10, height: 5)).image { context in
            UIColor.red.setFill()
            context.fill(CGRect(x: 0, y: 0, width: 10, height: 5))
        }
        #expect(image.scale == 3 && image.size == CGSize(width: 10, height: 5))
        let png = try #require(image.pngData())
        let decoded = try #require(UIImage(data: png))
        #expect(decoded.size == CGSize(width: 30, height: 15), "30 x 15 pixels")
        #expect(try pixel(decoded, 29, 14) == [255, 0, 0, 255])
    }

    @Test("fills paint the set colour over what is there; an opaque format writes PNG without alpha")
    func fills() throws {
        let image = drawn(2, 1) { x, _ in x == 0 ? .blue : UIColor.white.withAlphaComponent(0.5) }
        #expect(try pixel(image, 0, 0) == [0, 0, 255, 255])
        #expect(try pixel(image, 1, 0) == [128, 128, 128, 128], "premultiplied half-transparent white")
        #expect(try #require(image.pngData())[25] == 6)
        let opaque = drawn(1, 1, opaque: true) { _, _ in .green }
        #expect(try #require(opaque.pngData())[25] == 2)
        let format = UIGraphicsImageRendererFormat()
        format.scale = 1
        format.opaque = true
        let unfilled = UIGraphicsImageRenderer(size: CGSize(width: 1, height: 1), format: format).image { _ in }
        #expect(try pixel(unfilled, 0, 0) == [0, 0, 0, 255], "an opaque bitmap starts black")
    }

    @Test("drawing shrinks an image by averaging its pixels, and enlarges it smoothly")
    func resizing() throws {
        // A checkerboard of black and white shrunk to one pixel is grey, not one of its pixels.
        let checker = drawn(4, 4) { x, y in (x + y) % 2 == 0 ? .black : .white }
        let format = UIGraphicsImageRendererFormat()
        format.scale = 1
        let one = UIGraphicsImageRenderer(size: CGSize(width: 1, height: 1), format: format).image { _ in
            checker.draw(in: CGRect(x: 0, y: 0, width: 1, height: 1))
        }
        let grey = try pixel(one, 0, 0)
        #expect((120...135).contains(grey[0]) && grey[3] == 255, "\(grey)")
        // Left half black, right half white, shrunk to 2 x 1: each side keeps its colour.
        let halves = drawn(8, 2) { x, _ in x < 4 ? .black : .white }
        let two = UIGraphicsImageRenderer(size: CGSize(width: 2, height: 1), format: format).image { _ in
            halves.draw(in: CGRect(x: 0, y: 0, width: 2, height: 1))
        }
        #expect(try pixel(two, 0, 0) == [0, 0, 0, 255] && pixel(two, 1, 0) == [255, 255, 255, 255])
        // The fixture resized as an extension resizes it: 640 x 480 into 160 x 120 points at scale 1.
        let cat = try #require(UIImage(data: try fixture("cat.png")))
        let thumbnail = UIGraphicsImageRenderer(size: CGSize(width: 160, height: 120), format: format).image { _ in
            cat.draw(in: CGRect(x: 0, y: 0, width: 160, height: 120))
        }
        let jpeg = try #require(thumbnail.jpegData(compressionQuality: 0.8))
        #expect(UIImage(data: jpeg)?.size == CGSize(width: 160, height: 120))
        // Enlarging 2 pixels (black, white) to 4 blends between them.
        let pair = drawn(2, 1) { x, _ in x == 0 ? .black : .white }
        let wide = UIGraphicsImageRenderer(size: CGSize(width: 4, height: 1), format: format).image { _ in
            pair.draw(in: CGRect(x: 0, y: 0, width: 4, height: 1))
        }
        let middle = try pixel(wide, 1, 0)[0]
        #expect(try pixel(wide, 0, 0)[0] == 0 && pixel(wide, 3, 0)[0] == 255 && (1...254).contains(middle))
    }

    @Test("drawing outside the canvas or the clip changes nothing there")
    func clipping() throws {
        let format = UIGraphicsImageRendererFormat()
        format.scale = 1
        let red = drawn(1, 1) { _, _ in .red }
        let image = UIGraphicsImageRenderer(size: CGSize(width: 4, height: 1), format: format).image { context in
            context.clip(to: CGRect(x: 0, y: 0, width: 2, height: 1))
            red.draw(in: CGRect(x: -2, y: 0, width: 8, height: 1))
        }
        #expect(try pixel(image, 1, 0) == [255, 0, 0, 255] && pixel(image, 2, 0) == [0, 0, 0, 0])
    }

    @Test("a JPEG's Exif orientation is applied: a quarter-turned photo is upright and its size swapped")
    func exifOrientation() throws {
        // 32 x 16: red on the left half, blue on the right (wide enough for JPEG's 2 x 2 colour blocks).
        let wide = drawn(32, 16, opaque: true) { x, _ in x < 16 ? .red : .blue }
        var jpeg = try #require(wide.jpegData(compressionQuality: 1))
        // An APP1 Exif segment after SOI: big-endian TIFF, IFD0 with one entry, Orientation (0x0112) = 6.
        let tiff: [UInt8] = [
            0x4D, 0x4D, 0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 6, 0, 0, 0, 0, 0, 0, 0, 0,
        ]
        let payload = Array("Exif".utf8) + [0, 0] + tiff
        let length = payload.count + 2
        jpeg.insert(contentsOf: [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload, at: 2)
        let turned = try #require(UIImage(data: jpeg))
        #expect(turned.size == CGSize(width: 16, height: 32), "orientation 6 turns 32 x 16 into 16 x 32")
        let top = try pixel(turned, 8, 4)
        let bottom = try pixel(turned, 8, 27)
        #expect(top[0] > 200 && top[2] < 60, "red (the left) is on top after a clockwise quarter turn: \(top)")
        #expect(bottom[2] > 200 && bottom[0] < 60, "\(bottom)")
    }

    @Test("UIGraphicsBeginImageContextWithOptions draws as a renderer does; scale 0 is the screen's")
    func imageContext() throws {
        let cat = try #require(UIImage(data: try fixture("cat.png")))
        UIGraphicsBeginImageContextWithOptions(CGSize(width: 32, height: 24), false, 0)
        cat.draw(in: CGRect(x: 0, y: 0, width: 32, height: 24))
        let image = try #require(UIGraphicsGetImageFromCurrentImageContext())
        UIGraphicsEndImageContext()
        #expect(UIGraphicsGetImageFromCurrentImageContext() == nil, "ended")
        #expect(image.scale == 3 && image.size == CGSize(width: 32, height: 24))
        #expect(try pixel(image, 48, 36)[3] == 255, "the photo covers the context")
        let thumbnail = try #require(cat.preparingThumbnail(of: CGSize(width: 64, height: 48)))
        #expect(thumbnail.size == CGSize(width: 64, height: 48) && thumbnail.scale == 1)
    }

    @Test("UIImage(named:) reads a file of that name in the working directory, else nil")
    func named() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("richpush-uikit-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try fixture("cat.png").write(to: folder.appendingPathComponent("avatar@2x.png"))
        let previous = FileManager.default.currentDirectoryPath
        #expect(FileManager.default.changeCurrentDirectoryPath(folder.path))
        defer { _ = FileManager.default.changeCurrentDirectoryPath(previous) }
        let image = try #require(UIImage(named: "avatar"))
        #expect(image.scale == 2 && image.size == CGSize(width: 320, height: 240))
        #expect(UIImage(named: "missing") == nil)
    }

    @Test("colours: components, premultiplied painting, fonts as values")
    func colorsAndFonts() throws {
        var red: CGFloat = 0
        var alpha: CGFloat = 0
        #expect(UIColor.orange.getRed(&red, green: nil, blue: nil, alpha: &alpha) && red == 1 && alpha == 1)
        #expect(
            UIColor(white: 1, alpha: 0.5).premultiplied
                == PremultipliedColor(red: 128, green: 128, blue: 128, alpha: 128))
        #expect(UIColor(hue: 0, saturation: 1, brightness: 1, alpha: 1) == UIColor.red)
        let font = UIFont.boldSystemFont(ofSize: 17)
        #expect(font.pointSize == 17 && font.fontName == ".SFUI-Bold" && font.withSize(12).pointSize == 12)
    }
}
