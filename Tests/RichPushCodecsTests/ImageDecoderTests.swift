import Foundation
import RichPushCodecs
import RichPushCore
import Testing

/// The system codecs on the committed corpus images, whose colours scripts/make-fixture-images.py knows.
@Suite("ImageDecoder: PNG, JPEG and GIF with libpng, libjpeg-turbo and giflib")
struct ImageDecoderTests {
    let decoder = ImageDecoder()

    @Test("cat.png decodes to the colours the fixture script drew, exactly (PNG is lossless)")
    func catPNG() throws {
        let image = try decoder.decode(try fixture("cat.png"))
        #expect(image.width == 640 && image.height == 480 && image.frames.count == 1)
        #expect(image.frames[0].rgba.count == 640 * 480 * 4)
        #expect(image.frames[0].delay == .zero)
        #expect(rgba(image.pixel(x: 10, y: 10)) == [250, 236, 210, 255], "background")
        #expect(rgba(image.pixel(x: 10, y: 450)) == [200, 170, 130, 255], "floor")
        #expect(rgba(image.pixel(x: 320, y: 310)) == [240, 150, 60, 255], "body")
        #expect(rgba(image.pixel(x: 295, y: 172)) == [40, 90, 40, 255], "left eye")
        #expect(rgba(image.pixel(x: 320, y: 203)) == [200, 80, 90, 255], "nose")
    }

    @Test("interlaced.png (Adam7, RGBA) decodes every pixel, alpha kept; scaled boxes weigh colour by alpha")
    func interlacedPNG() throws {
        let bytes = try fixture("interlaced.png")
        let image = try decoder.decode(bytes)
        #expect(image.width == 16 && image.height == 16 && image.frames.count == 1)
        var wrong: [String] = []
        for y in 0..<16 {
            for x in 0..<16
            where rgba(image.pixel(x: x, y: y)) != [UInt8(16 * x), UInt8(16 * y), 200, UInt8(255 - 8 * x)] {
                wrong.append("\(x),\(y)")
            }
        }
        #expect(wrong.isEmpty, "pixels differing from the script's: \(wrong.prefix(10))")
        try decoder.check(bytes)
        let small = try decoder.decode(bytes, fitting: PixelSize(width: 4, height: 4))
        #expect(small.width == 4 && small.height == 4)
        // The top-left 4x4 box: red 16x weighted by alpha 255-8x gives 23, green 16y averages to 24, alpha to 243.
        #expect(rgba(small.pixel(x: 0, y: 0)) == [23, 24, 200, 243])
    }

    @Test(
        "baseline and progressive JPEG decode to the drawn gradient and disc",
        arguments: ["photo.jpg", "photo-progressive.jpg"])
    func photoJPEG(name: String) throws {
        let image = try decoder.decode(try fixture(name))
        #expect(image.width == 320 && image.height == 240 && image.frames.count == 1)
        for (x, y) in [(0, 0), (160, 120), (300, 20), (20, 220), (170, 60)] {
            #expect(near(image.pixel(x: x, y: y), photoPixel(x: x, y: y), tolerance: 12), "gradient at \(x),\(y)")
        }
        #expect(near(image.pixel(x: 235, y: 145), (20, 20, 60), tolerance: 12), "the dark disc")
        #expect(near(image.pixel(x: 90, y: 41), (255, 255, 255), tolerance: 40), "the white frame's top edge")
    }

    @Test("spinner.gif: 8 frames of 100 ms, the highlighted dot moving one place per frame")
    func spinnerGIF() throws {
        let image = try decoder.decode(try fixture("spinner.gif"))
        #expect(image.width == 64 && image.height == 64)
        #expect(image.frames.count == 8)
        #expect(image.frames.allSatisfy { $0.delay == .milliseconds(100) })
        for frame in 0..<8 {
            let lit = spinnerDot(frame)
            let next = spinnerDot((frame + 1) % 8)
            #expect(rgba(image.pixel(x: lit.x, y: lit.y, frame: frame)) == [30, 30, 30, 255], "frame \(frame) lit dot")
            #expect(rgba(image.pixel(x: next.x, y: next.y, frame: frame)) == [200, 200, 200, 255], "frame \(frame)")
            #expect(rgba(image.pixel(x: 32, y: 32, frame: frame)) == [255, 255, 255, 255], "frame \(frame) centre")
        }
    }

    @Test("GIF frames are composited: transparency keeps what is below, disposal clears or restores the area")
    func gifComposition() throws {
        // Palette: 0 black, 1 white, 2 red, 3 green. A 4x1 canvas.
        let gif = handBuiltGIF(
            width: 4, height: 1,
            frames: [
                GIFFrame(width: 4, indices: [2, 2, 2, 2]),  // red everywhere, kept
                GIFFrame(left: 1, indices: [3], disposal: 2),  // green at x=1, then cleared to transparent
                GIFFrame(left: 2, indices: [1], transparent: 1),  // a transparent pixel: x=2 stays red
                GIFFrame(left: 3, indices: [0], disposal: 3),  // black at x=3, then the canvas before it comes back
                GIFFrame(left: 0, indices: [3]),  // green at x=0
            ])
        let image = try decoder.decode(gif)
        #expect(image.width == 4 && image.height == 1 && image.frames.count == 5)
        #expect(image.frames.allSatisfy { $0.delay == .milliseconds(100) })
        let red: [UInt8] = [255, 0, 0, 255]
        let green: [UInt8] = [0, 255, 0, 255]
        let black: [UInt8] = [0, 0, 0, 255]
        let clear: [UInt8] = [0, 0, 0, 0]
        #expect(image.frames[0].rgba == red + red + red + red)
        #expect(image.frames[1].rgba == red + green + red + red)
        #expect(image.frames[2].rgba == red + clear + red + red, "disposal 2 cleared x=1; index 1 was transparent")
        #expect(image.frames[3].rgba == red + clear + red + black)
        #expect(image.frames[4].rgba == green + clear + red + red, "disposal 3 restored x=3")
    }

    @Test("decode(contentsOf:) reads the file")
    func fromFile() throws {
        let image = try decoder.decode(contentsOf: fixturesRoot.appendingPathComponent("cat.png"))
        #expect(rgba(image.pixel(x: 320, y: 310)) == [240, 150, 60, 255])
    }

    // MARK: Scaled down for display

    @Test("fitting a box: cat.png to 64x48, aspect kept, colours averaged")
    func fittingPNG() throws {
        let image = try decoder.decode(try fixture("cat.png"), fitting: PixelSize(width: 64, height: 64))
        #expect(image.width == 64 && image.height == 48)
        #expect(image.frames[0].rgba.count == 64 * 48 * 4)
        #expect(rgba(image.pixel(x: 1, y: 1)) == [250, 236, 210, 255], "background box")
        #expect(rgba(image.pixel(x: 32, y: 31)) == [240, 150, 60, 255], "a box inside the body")
        #expect(rgba(image.pixel(x: 1, y: 46)) == [200, 170, 130, 255], "a floor box")
    }

    @Test("fitting a box: JPEG scaled while decoding, then averaged")
    func fittingJPEG() throws {
        let image = try decoder.decode(try fixture("photo.jpg"), fitting: PixelSize(width: 40, height: 40))
        #expect(image.width == 40 && image.height == 30)
        // Box (20, 15) covers source pixels 160..<168 x 120..<128; the gradient is smooth there.
        #expect(near(image.pixel(x: 20, y: 15), photoPixel(x: 164, y: 124), tolerance: 16))
        #expect(near(image.pixel(x: 29, y: 18), (20, 20, 60), tolerance: 16), "inside the disc")
    }

    @Test("fitting a box: every GIF frame is scaled, delays kept")
    func fittingGIF() throws {
        let image = try decoder.decode(try fixture("spinner.gif"), fitting: PixelSize(width: 16, height: 16))
        #expect(image.width == 16 && image.height == 16 && image.frames.count == 8)
        #expect(image.frames.allSatisfy { $0.rgba.count == 16 * 16 * 4 && $0.delay == .milliseconds(100) })
        #expect(rgba(image.pixel(x: 8, y: 8, frame: 3)) == [255, 255, 255, 255], "the white centre")
        #expect(image.frames[0] != image.frames[1], "the frames still differ")
    }

    @Test("a box larger than the image leaves it at its own size")
    func noUpscale() throws {
        let image = try decoder.decode(try fixture("spinner.gif"), fitting: PixelSize(width: 500, height: 500))
        #expect(image.width == 64 && image.height == 64)
        #expect(
            PixelSize(width: 640, height: 480).fitting(PixelSize(width: 10, height: 100))
                == PixelSize(width: 10, height: 8))
        #expect(
            PixelSize(width: 3000, height: 1).fitting(PixelSize(width: 10, height: 10))
                == PixelSize(width: 10, height: 1))
    }

    // MARK: Damaged data

    @Test(
        "truncated data: not decoded, with its sentence",
        arguments: [
            ("cat.png", [40, 100, 1500, 2900], "the PNG data ends early"),
            ("photo.jpg", [300, 1000, 4000, 9000], "the JPEG data ends early"),
            ("photo-progressive.jpg", [1000, 4000, 8000], "the JPEG data ends early"),
            ("spinner.gif", [10, 20, 900, 3000, 7000], "the GIF data ends early"),
        ])
    func truncated(name: String, cuts: [Int], sentence: String) async throws {
        let whole = try fixture(name)
        for cut in cuts {
            let bytes = Array(whole.prefix(cut))
            #expect(throws: ImageDecodingError(.endsEarly, sentence), "\(name) cut at \(cut)") {
                try decoder.decode(bytes)
            }
            #expect(throws: ImageDecodingError(.endsEarly, sentence), "\(name) cut at \(cut), checked") {
                try decoder.check(bytes)
            }
            #expect(throws: ImageDecodingError(.endsEarly, sentence), "\(name) cut at \(cut), scaled") {
                try decoder.decode(bytes, fitting: PixelSize(width: 8, height: 8))
            }
        }
        // The whole file is fine in every mode.
        try decoder.check(whole)
    }

    @Test("verify reads the attachment file and gives the verdict")
    func verify() async throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("richpush-codecs-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let whole = directory.appendingPathComponent("whole.jpg")
        let cut = directory.appendingPathComponent("cut.jpg")
        try Data(try fixture("photo.jpg")).write(to: whole)
        try Data(try fixture("photo.jpg").prefix(4000)).write(to: cut)

        #expect(await decoder.verify(whole, format: .jpeg) == .decoded)
        #expect(await decoder.verify(cut, format: .jpeg) == .notDecoded("the JPEG data ends early"))
        let missing = await decoder.verify(directory.appendingPathComponent("gone.png"), format: .png)
        #expect(missing == .notDecoded("the image file could not be read (gone.png)"))
        let small = ImageDecoder(budget: .init(fileBytes: 1000))
        #expect(
            await small.verify(whole, format: .jpeg)
                == .notDecoded("the image file whole.jpg is 9419 bytes, over the 1000-byte budget"))
    }

    @Test("corrupt data: not decoded, quoting the codec")
    func corrupt() throws {
        var png = try fixture("cat.png")
        png[1000] ^= 0xFF
        let pngError = try #require(throws: ImageDecodingError.self) { try decoder.check(png) }
        #expect(pngError.kind == .corrupt)
        #expect(pngError.sentence.hasPrefix("the PNG data is corrupt ("), "\(pngError.sentence)")

        var jpeg = try fixture("photo.jpg")
        jpeg.replaceSubrange(5000..<5002, with: [0xFF, 0xD3])  // a restart marker in the middle of the scan
        #expect(
            throws: ImageDecodingError(
                .corrupt, "the JPEG data is corrupt (Corrupt JPEG data: premature end of data segment)")
        ) {
            try decoder.decode(jpeg)
        }

        var gif = try fixture("spinner.gif")
        for index in 830..<860 { gif[index] = 0xFF }  // garbage in the first frame's LZW data
        #expect(throws: ImageDecodingError(.corrupt, "the GIF data is corrupt (Image is defective, decoding aborted)"))
        {
            try decoder.decode(gif)
        }
    }

    @Test(
        "formats iOS does not show are refused with their name", arguments: ["sample.webp", "sample.bmp", "page.html"])
    func unsupported(name: String) throws {
        let error = try #require(throws: ImageDecodingError.self) { try decoder.decode(try fixture(name)) }
        #expect(error.kind == .unsupported)
        #expect(
            name != "sample.webp"
                || error.sentence == "WebP images are not decoded; notifications show PNG, JPEG and GIF")
        #expect(name != "page.html" || error.sentence.hasPrefix("the data is not an image ("))
    }

    // MARK: Decompression bombs

    @Test("bomb.png (274 bytes claiming 100000x100000) is refused from its header")
    func pngBomb() throws {
        let bomb = try fixture("bomb.png")
        #expect(bomb.count < 400)
        let sentence = "the PNG is 100000x100000 (10000 megapixels), over the 50-megapixel budget"
        #expect(throws: ImageDecodingError(.overBudget, sentence)) { try decoder.decode(bomb) }
        #expect(throws: ImageDecodingError(.overBudget, sentence)) { try decoder.check(bomb) }
    }

    @Test("a GIF whose canvas is 65535x65535 is refused from its header")
    func gifBomb() throws {
        let bomb = tinyFramesGIF(width: 65535, height: 65535, frames: 1)
        #expect(
            throws: ImageDecodingError(
                .overBudget, "the GIF is 65535x65535 (4295 megapixels), over the 50-megapixel budget")
        ) {
            try decoder.decode(bomb)
        }
    }

    @Test("a progressive JPEG of more than 1000 scans is refused: each scan is decoded over the whole image")
    func tooManyScans() throws {
        // 1135 scans of an 8x8 picture (Fixtures/many-scans.c); at 12 megapixels as many would cost minutes of CPU.
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/many-scans.jpg")
        let jpeg = try [UInt8](Data(contentsOf: url))
        let error = ImageDecodingError(
            .corrupt, "the JPEG data is corrupt (the progressive JPEG has more scans than a decoder allows)")
        #expect(throws: error) { try decoder.check(jpeg) }
        #expect(throws: error) { try decoder.decode(jpeg) }
    }

    @Test("an animation over the budget for all frames is refused before its first frame")
    func allFramesBudget() throws {
        // 10 frames of a 5000x5000 canvas: 25 megapixels each is within the frame budget, 250 in all is not.
        let gif = tinyFramesGIF(width: 5000, height: 5000, frames: 10)
        let sentence =
            "the GIF's 10 frames of 5000x5000 come to 250 megapixels, over the 200-megapixel budget for all frames"
        #expect(throws: ImageDecodingError(.overBudget, sentence)) { try decoder.decode(gif) }
        // Within the budget the same animation decodes: 2 frames, the pixel drawn at the top left.
        let small = try ImageDecoder().decode(tinyFramesGIF(width: 50, height: 40, frames: 2))
        #expect(small.frames.count == 2 && small.width == 50 && small.height == 40)
        #expect(rgba(small.pixel(x: 0, y: 0)) == [255, 255, 255, 255])
        #expect(rgba(small.pixel(x: 1, y: 0)) == [0, 0, 0, 0], "the rest of the canvas is transparent")
        // A smaller budget is honoured too.
        let strict = ImageDecoder(budget: .init(pixelsPerFrame: 1_000, pixelsForAllFrames: 3_000))
        #expect(throws: ImageDecodingError.self) { try strict.decode(tinyFramesGIF(width: 50, height: 40, frames: 2)) }
    }

    @Test("a frame limit keeps an animation's first frames and never reads the others (a thumbnail)")
    func frameLimit() throws {
        let spinner = try fixture("spinner.gif")
        let full = try decoder.decode(spinner, fitting: PixelSize(width: 16, height: 16))
        let first = try decoder.decode(spinner, fitting: PixelSize(width: 16, height: 16), frameLimit: 1)
        #expect(first.frames.count == 1 && first.width == 16 && first.height == 16)
        #expect(first.frames[0].rgba == full.frames[0].rgba && first.frames[0].delay == full.frames[0].delay)
        #expect(try decoder.decode(spinner, frameLimit: 3).frames.count == 3)
        #expect(try decoder.decode(try fixture("cat.png"), frameLimit: 1).frames.count == 1)

        // The second frame's data cut short: the whole animation fails, its first frame alone does not.
        let whole = handBuiltGIF(
            width: 2, height: 1,
            frames: [GIFFrame(width: 2, indices: [2, 3]), GIFFrame(width: 2, indices: [1, 1])])
        let cut = Array(whole.prefix(whole.count - 4))
        #expect(throws: ImageDecodingError.self) { try decoder.decode(cut) }
        let still = try decoder.decode(cut, frameLimit: 1)
        #expect(still.frames.count == 1)
        #expect(still.frames[0].rgba == [255, 0, 0, 255, 0, 255, 0, 255])

        // Over the budget for all frames, but not for the frames kept.
        let strict = ImageDecoder(budget: .init(pixelsPerFrame: 2_000, pixelsForAllFrames: 3_000))
        let animation = tinyFramesGIF(width: 50, height: 40, frames: 2)
        #expect(throws: ImageDecodingError.self) { try strict.decode(animation) }
        #expect(try strict.decode(animation, frameLimit: 1).frames.count == 1)
    }

    @Test("refusing bombs does not grow the process: its peak RSS rises by at most 50 MB, in a process of its own")
    func bombMemory() async throws {
        // Decoding any of these bombs would take gigabytes, or 100 MB per frame of the 5000x5000 animation, and raise
        // the peak by that much. The child (an exit test, so no other test's memory counts) says how much it grew.
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            guard let bomb = try? fixture("bomb.png"), let before = PeakMemory.bytes() else {
                FileHandle.standardError.write(Data("no bomb.png, or no /proc/self/status\n".utf8))
                exit(2)
            }
            let decoder = ImageDecoder()
            let bombs = [
                bomb, tinyFramesGIF(width: 65535, height: 65535, frames: 1),
                tinyFramesGIF(width: 5000, height: 5000, frames: 10),
            ]
            for bomb in bombs {
                _ = try? decoder.decode(bomb)
                _ = try? decoder.check(bomb)
                _ = try? decoder.decode(bomb, fitting: PixelSize(width: 100, height: 100))
            }
            let after = PeakMemory.bytes() ?? Int.max
            FileHandle.standardError.write(Data("\(after - before)\n".utf8))
            exit(0)
        }
        let words = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        let grew = try #require(Int(words.trimmingCharacters(in: .whitespacesAndNewlines)), "the child said: \(words)")
        #expect(grew <= 50 * 1024 * 1024, "peak RSS grew by \(grew / 1024 / 1024) MB")
    }
}
