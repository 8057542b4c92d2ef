import Foundation

/// PNG, JPEG and GIF through CImageIO (libpng, libjpeg-turbo, a GIF decoder of its own): what a UIImage's bytes hold, their pixels, and pixels back
/// to bytes; and drawing one bitmap scaled into another.
///
/// UIKit does not `import CImageIO`: a Swift module that imports a C module makes every client that imports it find
/// that C module's map too, and a team's extension is compiled against the Swift modules alone. CImageIO hands its
/// functions over as C function pointers instead (`rp_image_io_functions`, see its header).
enum ImageCodec {
    /// The most pixels one image may have: a PNG, JPEG or GIF over it is not decoded (a decode bomb, such as a 100000x100000
    /// PNG of a few kilobytes, would otherwise ask for 40 GB). The figure richpush's own decoder allows a frame.
    static let maxPixels: UInt64 = 50_000_000

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

    /// The header of PNG, JPEG or GIF `data`; nil for anything else, a header the decoder refuses, or an image over
    /// ``maxPixels``.
    static func header(of data: Data) -> Header? {
        var header = [UInt32](repeating: 0, count: 5)
        let status = data.withUnsafeBytes { bytes in
            header.withUnsafeMutableBufferPointer { out in
                CImageIO.probe(
                    bytes.bindMemory(to: UInt8.self).baseAddress, bytes.count, maxPixels, out.baseAddress)
            }
        }
        guard status == CImageIO.ok, header[1] > 0, header[2] > 0 else { return nil }
        return Header(
            format: header[0] == CImageIO.png ? .png : header[0] == CImageIO.gif ? .gif : .jpeg, width: Int(header[1]),
            height: Int(header[2]),
            opaque: header[4] != 0)
    }

    /// The pixels of `data`, whose header is `header`. Data that breaks off part-way gives the rows decoded before
    /// (the rest transparent, or grey for a JPEG, as libjpeg fills it), as iOS draws such an image.
    static func decode(_ data: Data, header: Header) -> PixelBuffer {
        var buffer = PixelBuffer(width: header.width, height: header.height, opaque: header.opaque)
        buffer.pixels.withUnsafeMutableBufferPointer { out in
            data.withUnsafeBytes { bytes in
                _ = CImageIO.decode(
                    bytes.bindMemory(to: UInt8.self).baseAddress, bytes.count, maxPixels, out.baseAddress, out.count)
            }
        }
        return buffer
    }

    /// PNG bytes; RGB without an alpha channel when the pixels are opaque.
    static func png(_ buffer: PixelBuffer) -> Data? {
        encode(buffer, CImageIO.encodePNG, buffer.opaque ? 0 : 1)
    }

    /// JPEG bytes at `quality` 0...1 (libjpeg's 1...100).
    static func jpeg(_ buffer: PixelBuffer, quality: Double) -> Data? {
        encode(buffer, CImageIO.encodeJPEG, Int32((min(max(quality, 0), 1) * 100).rounded()))
    }

    private static func encode(_ buffer: PixelBuffer, _ encoder: CImageIO.Encode, _ option: Int32) -> Data? {
        guard buffer.width > 0, buffer.height > 0 else { return nil }
        var bytes: UnsafeMutablePointer<UInt8>?
        var length = 0
        let status = buffer.pixels.withUnsafeBufferPointer { pixels in
            encoder(pixels.baseAddress, UInt32(buffer.width), UInt32(buffer.height), option, &bytes, &length)
        }
        defer { CImageIO.free(bytes) }
        guard status == CImageIO.ok, let bytes else { return nil }
        return Data(bytes: bytes, count: length)
    }
}

/// CImageIO's functions as Swift calls them, with its constants (include/CImageIO.h).
enum CImageIO {
    static let ok: Int32 = 0
    static let png: UInt32 = 1
    static let gif: UInt32 = 3

    typealias Probe = @convention(c) (UnsafePointer<UInt8>?, Int, UInt64, UnsafeMutablePointer<UInt32>?) -> Int32
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

    static var probe: Probe { function(0) }
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
