internal import CImageCodecs
public import Foundation
public import RichPushCore
internal import RichPushFiles

/// Decodes PNG, JPEG and GIF with the system codecs (libpng, libjpeg-turbo, giflib) into ``DecodedImage``s.
///
/// Every decode is bounded by a ``Budget`` checked from the headers before any pixels are allocated, so a
/// small file that claims a huge picture (a decompression bomb) is refused cheaply. Errors are sentences a
/// person can read (``ImageDecodingError``).
///
/// ```swift
/// let decoder = ImageDecoder()
/// let full = try decoder.decode(bytes)                                       // every pixel, every frame
/// let thumb = try decoder.decode(bytes, fitting: PixelSize(width: 64, height: 48))  // at most 64x48, aspect kept
/// try decoder.check(bytes)                                                    // decode and keep nothing
/// ```
///
/// Decoding is synchronous and CPU-bound; the decoder is a value with no shared state, safe to use from any
/// thread.
public struct ImageDecoder: ImageDecoding, Sendable {
    /// How many pixels one decode may produce, and how large a file it reads.
    public struct Budget: Sendable, Equatable {
        /// Pixels in one frame (for GIF: the canvas, and every frame's rectangle).
        public var pixelsPerFrame: Int
        /// Canvas pixels summed over the frames of an animated GIF.
        public var pixelsForAllFrames: Int
        /// The largest file ``decode(contentsOf:fitting:)`` reads into memory and ``verify(_:format:)`` checks.
        public var fileBytes: Int

        public init(
            pixelsPerFrame: Int = 50_000_000, pixelsForAllFrames: Int = 200_000_000, fileBytes: Int = 64 * 1024 * 1024
        ) {
            self.pixelsPerFrame = pixelsPerFrame
            self.pixelsForAllFrames = pixelsForAllFrames
            self.fileBytes = fileBytes
        }
    }

    public var budget: Budget

    public init(budget: Budget = Budget()) {
        self.budget = budget
    }

    /// Decodes an image held in memory; the format comes from the bytes. With `box`, every frame is scaled
    /// down (box-averaged; JPEG also by libjpeg's own 1/2, 1/4, 1/8 while decoding) to fit inside it, aspect
    /// kept and never enlarged, so only the small frames are kept; the budget still applies to the full size.
    /// With `frameLimit`, an animated GIF stops after that many frames (a still picture of it, such as a
    /// thumbnail): the frames after them are neither decoded nor checked.
    public func decode(
        _ bytes: some Collection<UInt8>, fitting box: PixelSize? = nil, frameLimit: Int? = nil
    ) throws(ImageDecodingError) -> DecodedImage {
        let bytes = Array(bytes)
        let format = try Self.format(of: bytes)
        guard let image = try run(bytes, format: format, output: .frames(box, limit: frameLimit.map { max(1, $0) }))
        else {
            // Unreachable: only checking (`output: .none`) gives no image.
            throw ImageDecodingError(.corrupt, "the \(format.displayName) gave no image")
        }
        return image
    }

    /// Decodes the file at `url`, as ``decode(_:fitting:frameLimit:)``.
    public func decode(contentsOf url: URL, fitting box: PixelSize? = nil, frameLimit: Int? = nil)
        throws(ImageDecodingError) -> DecodedImage
    {
        try decode(try read(url), fitting: box, frameLimit: frameLimit)
    }

    /// Decodes every byte of image data and keeps no pixels: the cheapest full check (no full-size buffer for
    /// PNG and JPEG; a GIF's frames are read without compositing). `format` defaults to the one the bytes say.
    public func check(_ bytes: some Collection<UInt8>, format: ImageFormat? = nil) throws(ImageDecodingError) {
        let bytes = Array(bytes)
        let detected: ImageFormat
        if let format { detected = format } else { detected = try Self.format(of: bytes) }
        if detected == .png, bytes.count <= Self.quickCheckFileBytes,
            rp_png_quick_check(bytes, bytes.count, quickCheckPixels, Self.quickCheckRawBytes) == 1
        {
            return
        }
        _ = try run(bytes, format: detected, output: .none)
    }

    /// ``ImageDecoding``: checks the downloaded attachment as ``check(_:format:)`` does, reading the file in
    /// chunks of 64 KB as the codec asks for them (never the whole file into memory).
    public func verify(_ file: URL, format: ImageFormat) async -> DecodeVerdict {
        do {
            try checkFile(file, format: format)
            return .decoded
        } catch {
            return .notDecoded(error.sentence)
        }
    }

    // MARK: - Decoding

    private enum Output {
        case none
        /// Scaled to fit the box; at most `limit` frames.
        case frames(PixelSize?, limit: Int?)
    }

    private func read(_ url: URL) throws(ImageDecodingError) -> [UInt8] {
        try checkFileSize(url)
        do {
            return try [UInt8](Data(contentsOf: url))
        } catch {
            throw unreadable(url)
        }
    }

    private func checkFileSize(_ url: URL) throws(ImageDecodingError) {
        // One stat(2); a path that cannot be read is the codec's to report.
        if case .success(let node) = FileNode.following(url.path), node.size > budget.fileBytes {
            throw ImageDecodingError(
                .overBudget,
                "the image file \(url.lastPathComponent) is \(node.size) bytes, over the \(budget.fileBytes)-byte budget"
            )
        }
    }

    private func unreadable(_ url: URL) -> ImageDecodingError {
        ImageDecodingError(.unreadable, "the image file could not be read (\(url.lastPathComponent))")
    }

    /// ``check(_:format:)`` on a file read by the codec itself, one chunk at a time.
    private func checkFile(_ url: URL, format: ImageFormat) throws(ImageDecodingError) {
        try checkFileSize(url)
        if format == .png {
            let accepted = url.withUnsafeFileSystemRepresentation { path in
                rp_png_quick_check_file(path, Self.quickCheckFileBytes, quickCheckPixels, Self.quickCheckRawBytes)
            }
            if accepted == 1 { return }
        }
        // The frames of an animated GIF are counted by walking its blocks in chunks, as in memory.
        if format == .gif, case .image(let info)? = try? ImageInspector.inspect(fileAt: url) {
            try checkAllFrames(info)
        }
        // A path with no file-system representation reaches the codec as NULL: unreadable, as a missing file.
        let opened = url.withUnsafeFileSystemRepresentation { path in
            rp_codec_open_file(
                format.codec, path, UInt64(max(0, budget.pixelsPerFrame)), UInt64(max(0, budget.pixelsForAllFrames)))
        }
        guard let codec = opened else {
            throw ImageDecodingError(.outOfMemory, "there was no memory to decode the \(format.displayName)")
        }
        defer { rp_codec_close(codec) }
        let result = frames(codec, format: format, output: .none)
        if Int(rp_codec_status(codec)) == RP_CODEC_UNREADABLE { throw unreadable(url) }
        _ = try result.get()
    }

    // MARK: - The quick PNG check

    /// Files up to this size get the quick PNG check (``rp_png_quick_check``: libdeflate, about ten times faster
    /// than libpng's zlib), which holds the file and the image's rows in memory at once; larger ones go straight
    /// to libpng, which streams them. The figure UIImage's check (`rp_image_check`) uses too.
    static let quickCheckFileBytes = Int(RP_PNG_QUICK_CHECK_FILE_BYTES)
    /// Images with at most this many bytes of rows get the quick check.
    static let quickCheckRawBytes = Int(RP_PNG_QUICK_CHECK_RAW_BYTES)

    private var quickCheckPixels: UInt64 { UInt64(max(0, min(budget.pixelsPerFrame, budget.pixelsForAllFrames))) }

    /// The format from the magic bytes alone (a cut-short header is the codec's to report), else why not.
    private static func format(of bytes: [UInt8]) throws(ImageDecodingError) -> ImageFormat {
        // The same test as UIImage's (rp_image_check).
        switch Int(rp_codec_format(bytes, bytes.count)) {
        case RP_CODEC_PNG: return .png
        case RP_CODEC_JPEG: return .jpeg
        case RP_CODEC_GIF: return .gif
        default: break
        }
        switch ImageInspector.inspect(bytes) {
        case .image(let info): return info.format
        case .unsupportedImageType(let name):
            throw ImageDecodingError(
                .unsupported, "\(name) images are not decoded; notifications show PNG, JPEG and GIF")
        case .notAnImage(let what):
            throw ImageDecodingError(.unsupported, "the data is not an image (\(what))")
        }
    }

    /// The whole decode. `nil` when checking only.
    private func run(_ bytes: [UInt8], format: ImageFormat, output: Output) throws(ImageDecodingError)
        -> DecodedImage?
    {
        // An animated GIF's frames are counted from the blocks, without decoding, so the budget for all frames
        // refuses it before the first frame is drawn (the frames kept, when there is a limit).
        if format == .gif, case .image(var info) = ImageInspector.inspect(bytes) {
            if case .frames(_, let limit?) = output { info.frames = min(info.frames, limit) }
            try checkAllFrames(info)
        }
        let result: Result<DecodedImage?, ImageDecodingError> = bytes.withUnsafeBufferPointer { buffer in
            guard
                let codec = rp_codec_open(
                    format.codec, buffer.baseAddress, buffer.count, UInt64(max(0, budget.pixelsPerFrame)),
                    UInt64(max(0, budget.pixelsForAllFrames)))
            else {
                return .failure(
                    ImageDecodingError(.outOfMemory, "there was no memory to decode the \(format.displayName)"))
            }
            defer { rp_codec_close(codec) }
            return frames(codec, format: format, output: output)
        }
        return try result.get()
    }

    /// Refuses an animation whose frames (counted from its blocks) are over the budget for all frames.
    private func checkAllFrames(_ info: ImageInfo) throws(ImageDecodingError) {
        let total = info.width * info.height * info.frames
        if info.width * info.height <= budget.pixelsPerFrame, total > budget.pixelsForAllFrames {
            throw overAllFrames(width: info.width, height: info.height, frames: info.frames, total: total)
        }
    }

    /// Every frame from an opened codec; `nil` when checking only (the codec then keeps no pixels).
    private func frames(_ codec: OpaquePointer, format: ImageFormat, output: Output) -> Result<
        DecodedImage?, ImageDecodingError
    > {
        let name = format.displayName
        if rp_codec_status(codec) != Int32(RP_CODEC_OK) { return .failure(error(codec, name)) }
        let width = Int(rp_codec_width(codec))
        let height = Int(rp_codec_height(codec))
        guard case .frames(let box, let limit) = output else {
            while true {
                let status = Int(rp_codec_next_frame(codec, nil, 0, 0, nil))
                if status == RP_CODEC_END { return .success(nil) }
                if status != RP_CODEC_OK { return .failure(error(codec, name)) }
                if format != .gif { return .success(nil) }
            }
        }
        let size = PixelSize(width: width, height: height).fitting(box)
        var frames: [DecodedImage.Frame] = []
        while true {
            var delay: UInt32 = 0
            var status = RP_CODEC_OK
            let rgba = [UInt8](unsafeUninitializedCapacity: size.width * size.height * 4) { pixels, count in
                status = Int(
                    rp_codec_next_frame(codec, pixels.baseAddress, UInt32(size.width), UInt32(size.height), &delay))
                // On success every byte was written; otherwise the array is dropped unread.
                count = status == RP_CODEC_OK ? pixels.count : 0
            }
            if status == RP_CODEC_END { break }
            if status != RP_CODEC_OK { return .failure(error(codec, name)) }
            frames.append(
                DecodedImage.Frame(rgba: rgba, delay: format == .gif ? .milliseconds(Int(delay)) : .zero))
            if format != .gif || frames.count == limit { break }
        }
        return .success(DecodedImage(width: size.width, height: size.height, frames: frames))
    }

    private func error(_ codec: OpaquePointer, _ name: String) -> ImageDecodingError {
        switch Int(rp_codec_status(codec)) {
        case RP_CODEC_ENDS_EARLY:
            return ImageDecodingError(.endsEarly, "the \(name) data ends early")
        case RP_CODEC_OVER_BUDGET:
            let width = Int(rp_codec_frame_width(codec))
            let height = Int(rp_codec_frame_height(codec))
            let total = Int(rp_codec_total_pixels(codec))
            if width * height <= budget.pixelsPerFrame, total > budget.pixelsForAllFrames {
                return overAllFrames(width: width, height: height, frames: nil, total: total)
            }
            return ImageDecodingError(
                .overBudget,
                "the \(name) is \(width)x\(height) (\(Self.megapixels(width * height)) megapixels), over the \(Self.megapixels(budget.pixelsPerFrame))-megapixel budget"
            )
        case RP_CODEC_NO_MEMORY:
            return ImageDecodingError(.outOfMemory, "there was no memory to decode the \(name)")
        default:
            let words = String(cString: rp_codec_message(codec))
            return ImageDecodingError(.corrupt, "the \(name) data is corrupt" + (words.isEmpty ? "" : " (\(words))"))
        }
    }

    private func overAllFrames(width: Int, height: Int, frames: Int?, total: Int) -> ImageDecodingError {
        let count = frames.map { "\($0) frames" } ?? "its frames"
        return ImageDecodingError(
            .overBudget,
            "the GIF's \(count) of \(width)x\(height) come to \(Self.megapixels(total)) megapixels, over the \(Self.megapixels(budget.pixelsForAllFrames))-megapixel budget for all frames"
        )
    }

    /// Megapixels for a sentence: whole numbers when large, one decimal below 10.
    static func megapixels(_ pixels: Int) -> String {
        let value = Double(pixels) / 1_000_000
        if value >= 10 || value == value.rounded() { return "\(Int(value.rounded()))" }
        return String(format: "%.1f", value)
    }
}

/// A width and height in pixels.
public struct PixelSize: Sendable, Equatable, Hashable {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// This size scaled down to fit inside `box` with its aspect kept (at least 1x1); unchanged when it
    /// already fits or `box` is nil.
    public func fitting(_ box: PixelSize?) -> PixelSize {
        guard let box, width > 0, height > 0, width > box.width || height > box.height else { return self }
        let scale = min(Double(max(1, box.width)) / Double(width), Double(max(1, box.height)) / Double(height))
        return PixelSize(
            width: min(width, max(1, Int((Double(width) * scale).rounded()))),
            height: min(height, max(1, Int((Double(height) * scale).rounded()))))
    }
}

/// Why an image did not decode, as a sentence for people ("the PNG data ends early").
public struct ImageDecodingError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable, Equatable {
        /// The data stops before the image does (a truncated download).
        case endsEarly
        /// The codec refused the data; the sentence quotes its words.
        case corrupt
        /// Over the pixel budget, refused from the header before decoding.
        case overBudget
        /// Not PNG, JPEG or GIF.
        case unsupported
        /// The file could not be read.
        case unreadable
        case outOfMemory
    }

    public var kind: Kind
    public var sentence: String

    public init(_ kind: Kind, _ sentence: String) {
        self.kind = kind
        self.sentence = sentence
    }

    public var description: String { sentence }
}

extension ImageFormat {
    /// The name a sentence uses: PNG, JPEG, GIF.
    var displayName: String { rawValue.uppercased() }

    fileprivate var codec: Int32 {
        switch self {
        case .png: Int32(RP_CODEC_PNG)
        case .jpeg: Int32(RP_CODEC_JPEG)
        case .gif: Int32(RP_CODEC_GIF)
        }
    }
}
