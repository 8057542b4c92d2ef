import Foundation

/// PNG, JPEG and GIF through Shared's CImageCodecs, the codecs richpush's ImageDecoder uses (libpng, libjpeg-turbo,
/// giflib), so an image UIImage reads is one richpush calls decoded, and the other way round: what a UIImage's bytes
/// hold, their pixels, and pixels back to bytes; and drawing one bitmap scaled into another.
///
/// UIKit does not `import CImageCodecs`: a Swift module that imports a C module makes every client that imports it
/// find that C module's map too, and a team's extension is compiled against the Swift modules alone. CImageCodecs
/// hands UIKit its functions as C function pointers instead (`rp_image_io_functions`, see its header).
enum ImageCodec {
    /// The most pixels one image (a GIF: its canvas and every frame) may have: one over it is not decoded (a decode
    /// bomb, such as a 100000x100000 PNG of a few kilobytes, would otherwise ask for 40 GB). richpush's decoder's
    /// figure (`ImageDecoder.Budget.pixelsPerFrame`).
    static let maxPixels: UInt64 = 50_000_000
    /// The canvas pixels of all of a GIF's frames together: richpush's `ImageDecoder.Budget.pixelsForAllFrames`.
    static let maxPixelsForAllFrames: UInt64 = 200_000_000

    /// What a file's header says.
    struct Header: Sendable, Equatable {
        enum Format: Sendable { case png, jpeg, gif }
        var format: Format
        /// Upright pixels (a JPEG's Exif orientation applied).
        var width: Int
        var height: Int
        /// No alpha channel in the file.
        var opaque: Bool
    }

    /// The header of PNG, JPEG or GIF `data` whose every byte of image data decodes, as richpush's decoder checks it
    /// (every frame of a GIF); nil for anything else, data that is corrupt or ends early, or an image over the
    /// budgets. No pixels are kept: a PNG's rows are read one at a time, a JPEG is decoded at 1/8 scale.
    static func header(of data: Data) -> Header? {
        var header = [UInt32](repeating: 0, count: 5)
        let status = data.withUnsafeBytes { bytes in
            header.withUnsafeMutableBufferPointer { out in
                CImageCodecs.check(
                    bytes.bindMemory(to: UInt8.self).baseAddress, bytes.count, maxPixels, maxPixelsForAllFrames,
                    out.baseAddress)
            }
        }
        guard status == CImageCodecs.ok, header[1] > 0, header[2] > 0 else { return nil }
        return Header(
            format: header[0] == CImageCodecs.png ? .png : header[0] == CImageCodecs.gif ? .gif : .jpeg,
            width: Int(header[1]), height: Int(header[2]), opaque: header[4] != 0)
    }

    /// The pixels of `data` (a GIF's first frame), whose header is `header`.
    static func decode(_ data: Data, header: Header) -> PixelBuffer {
        var buffer = PixelBuffer(width: header.width, height: header.height, opaque: header.opaque)
        buffer.pixels.withUnsafeMutableBufferPointer { out in
            data.withUnsafeBytes { bytes in
                _ = CImageCodecs.decode(
                    bytes.bindMemory(to: UInt8.self).baseAddress, bytes.count, maxPixels, out.baseAddress, out.count)
            }
        }
        return buffer
    }

    /// PNG bytes; RGB without an alpha channel when the pixels are opaque.
    static func png(_ buffer: PixelBuffer) -> Data? {
        encode(buffer, CImageCodecs.encodePNG, buffer.opaque ? 0 : 1)
    }

    /// JPEG bytes at `quality` 0...1 (libjpeg's 1...100).
    static func jpeg(_ buffer: PixelBuffer, quality: Double) -> Data? {
        encode(buffer, CImageCodecs.encodeJPEG, Int32((min(max(quality, 0), 1) * 100).rounded()))
    }

    private static func encode(_ buffer: PixelBuffer, _ encoder: CImageCodecs.Encode, _ option: Int32) -> Data? {
        guard buffer.width > 0, buffer.height > 0 else { return nil }
        var bytes: UnsafeMutablePointer<UInt8>?
        var length = 0
        let status = buffer.pixels.withUnsafeBufferPointer { pixels in
            encoder(pixels.baseAddress, UInt32(buffer.width), UInt32(buffer.height), option, &bytes, &length)
        }
        defer { CImageCodecs.free(bytes) }
        guard status == CImageCodecs.ok, let bytes else { return nil }
        return Data(bytes: bytes, count: length)
    }
}

/// CImageCodecs' functions for UIKit as Swift calls them, with its constants (Shared/Sources/CImageCodecs/include/
/// CImageCodecs.h).
enum CImageCodecs {
    static let ok: Int32 = 0
    static let png: UInt32 = 0
    static let gif: UInt32 = 2

    typealias Check =
        @convention(c) (UnsafePointer<UInt8>?, Int, UInt64, UInt64, UnsafeMutablePointer<UInt32>?) -> Int32
    typealias Decode = @convention(c) (UnsafePointer<UInt8>?, Int, UInt64, UnsafeMutablePointer<UInt8>?, Int) -> Int32
    typealias Encode =
        @convention(c) (
            UnsafePointer<UInt8>?, UInt32, UInt32, Int32, UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?,
            UnsafeMutablePointer<Int>?
        ) -> Int32
    typealias Free = @convention(c) (UnsafeMutableRawPointer?) -> Void
    typealias Draw =
        @convention(c) (
            UnsafeMutablePointer<UInt8>?, UInt32, UInt32, UnsafePointer<UInt8>?, UInt32, UInt32, Double, Double, Double,
            Double, Double, Int32, Int32, Int32, Int32, Int32
        ) -> Int32

    static var check: Check { function(0) }
    static var decode: Decode { function(1) }
    static var encodePNG: Encode { function(2) }
    static var encodeJPEG: Encode { function(3) }
    static var free: Free { function(4) }
    static var draw: Draw { function(5) }

    /// Entry `index` of `rp_image_io_functions()`, as the C type it has.
    private static func function<Function>(_ index: Int) -> Function {
        unsafeBitCast(rpImageIOFunctions()[index], to: Function.self)
    }
}

/// `const rp_image_function *rp_image_io_functions(void)`: no arguments and a pointer back, which Swift's calling
/// convention passes as C's does, so `@_silgen_name` reaches the C function without importing its module.
@_silgen_name("rp_image_io_functions")
private func rpImageIOFunctions() -> UnsafePointer<UnsafeRawPointer>
