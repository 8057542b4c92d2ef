import Foundation

/// An image, as an extension uses UIKit's: made from PNG, JPEG or GIF bytes or a file, measured, drawn into a renderer, and
/// written back as PNG or JPEG. https://developer.apple.com/documentation/uikit/uiimage
///
/// As on iOS, making an image keeps no pixels: they are decoded the first time they are needed (drawn, written as PNG
/// or JPEG, thumbnailed), and kept. So `UIImage(data:)` of a large photo costs little memory, and drawing it costs its
/// full size, which is what ends extensions that resize big photos on a phone. Making one does check all the data,
/// with richpush's own decoder, so a UIImage exists exactly for the images richpush calls decoded: data that is
/// corrupt or ends early gives nil (iOS shows what it can of such an image; richpush shows none). PNG, JPEG and GIF
/// (its first frame, as `UIImage(data:)` shows one) are read here; iOS reads HEIC, WebP, TIFF and BMP too, which give
/// nil under richpush. An image over 50 megapixels is refused (nil) rather than decoded.
open class UIImage: NSObject, @unchecked Sendable {
    // @unchecked: every stored property is a constant except `decoded`, which `lock` guards. UIImage on iOS is
    // immutable and shared across threads in the same way.
    private enum Source {
        case empty
        case encoded(Data, ImageCodec.Header)
        case pixels(PixelBuffer)
    }

    private let source: Source
    private let lock = NSLock()
    private var decoded: PixelBuffer?

    /// Pixels per point: 1 for an image from data, the renderer's scale for one drawn.
    /// https://developer.apple.com/documentation/uikit/uiimage/scale
    public let scale: CGFloat

    /// An image with no content (size zero); its PNG and JPEG data are nil.
    /// https://developer.apple.com/documentation/uikit/uiimage/init()
    public override init() {
        source = .empty
        scale = 1
        super.init()
    }

    /// The image in `data` at `scale`, or nil when `data` is not a PNG, JPEG or GIF that decodes whole.
    /// https://developer.apple.com/documentation/uikit/uiimage/init(data:scale:)
    public init?(data: Data, scale: CGFloat) {
        guard let header = ImageCodec.header(of: data) else { return nil }
        source = .encoded(data, header)
        self.scale = scale > 0 ? scale : 1
        super.init()
    }

    /// The image in `data` (scale 1), or nil when it is not a PNG, JPEG or GIF that decodes whole.
    /// https://developer.apple.com/documentation/uikit/uiimage/init(data:)
    public convenience init?(data: Data) {
        self.init(data: data, scale: 1)
    }

    /// The image in the file at `path`; a name ending `@2x` or `@3x` (before the extension) gives that scale, as on
    /// iOS. https://developer.apple.com/documentation/uikit/uiimage/init(contentsoffile:)
    public convenience init?(contentsOfFile path: String) {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        self.init(data: data, scale: Self.scale(ofFileNamed: path))
    }

    /// An image the extension ships. On iOS it comes from the extension's bundle or asset catalog; under richpush there
    /// is no bundle, so it is read from a file of that name in the extension's working directory (its container's
    /// home), trying `name`, then `name@3x.png`, `name@2x.png`, `name.png`, `name.jpg` and `name.jpeg`; nil when none
    /// is there. https://developer.apple.com/documentation/uikit/uiimage/init(named:)
    public convenience init?(named name: String) {
        let folder = FileManager.default.currentDirectoryPath
        let candidates =
            [name]
            + (URL(fileURLWithPath: name).pathExtension.isEmpty
                ? ["@3x.png", "@2x.png", ".png", ".jpg", ".jpeg"].map { name + $0 } : [])
        guard !name.isEmpty,
            let path = candidates.map({ folder + "/" + $0 }).first(where: {
                var isDirectory: ObjCBool = false
                return FileManager.default.fileExists(atPath: $0, isDirectory: &isDirectory) && !isDirectory.boolValue
            })
        else { return nil }
        self.init(contentsOfFile: path)
    }

    /// An image of pixels already drawn.
    init(pixels: PixelBuffer, scale: CGFloat) {
        source = .pixels(pixels)
        self.scale = scale > 0 ? scale : 1
        super.init()
    }

    /// The size in points: pixels divided by ``scale``, upright (a JPEG's Exif orientation applied).
    /// https://developer.apple.com/documentation/uikit/uiimage/size
    open var size: CGSize {
        let (width, height) = pixelSize
        return CGSize(width: CGFloat(width) / scale, height: CGFloat(height) / scale)
    }

    /// Always `.up`: the orientation a JPEG's Exif data gives is applied to the pixels when they are decoded.
    /// https://developer.apple.com/documentation/uikit/uiimage/imageorientation
    open var imageOrientation: Orientation { .up }

    /// The size in pixels.
    var pixelSize: (width: Int, height: Int) {
        switch source {
        case .empty: (0, 0)
        case .encoded(_, let header): (header.width, header.height)
        case .pixels(let buffer): (buffer.width, buffer.height)
        }
    }

    /// The pixels, decoded on first use; nil for an empty image.
    var pixels: PixelBuffer? {
        switch source {
        case .empty:
            return nil
        case .pixels(let buffer):
            return buffer
        case .encoded(let data, let header):
            lock.lock()
            defer { lock.unlock() }
            if let decoded { return decoded }
            let buffer = ImageCodec.decode(data, header: header)
            decoded = buffer
            return buffer
        }
    }

    /// The image as JPEG at `compressionQuality` 0 (smallest) to 1 (best); nil for an image without content. Alpha is
    /// dropped as iOS drops it: transparent areas come out black.
    /// https://developer.apple.com/documentation/uikit/uiimage/jpegdata(compressionquality:)
    open func jpegData(compressionQuality: CGFloat) -> Data? {
        pixels.flatMap { ImageCodec.jpeg($0, quality: Double(compressionQuality)) }
    }

    /// The image as PNG (with an alpha channel unless the image is opaque); nil for an image without content.
    /// https://developer.apple.com/documentation/uikit/uiimage/pngdata()
    open func pngData() -> Data? {
        pixels.flatMap { ImageCodec.png($0) }
    }

    /// Draws the image scaled to fill `rect` (in points) of the current image context (a renderer's `image(actions:)`
    /// or `UIGraphicsBeginImageContextWithOptions`); nothing without one.
    /// https://developer.apple.com/documentation/uikit/uiimage/draw(in:)
    open func draw(in rect: CGRect) {
        draw(in: rect, alpha: 1)
    }

    /// Draws the image at its size with its top-left corner at `point`.
    /// https://developer.apple.com/documentation/uikit/uiimage/draw(at:)
    open func draw(at point: CGPoint) {
        draw(in: CGRect(origin: point, size: size))
    }

    /// Draws the image into `rect` with the current context, its pixels multiplied by `alpha`.
    func draw(in rect: CGRect, alpha: Double) {
        guard let context = GraphicsContext.current, let pixels else { return }
        context.draw(pixels, in: rect, alpha: alpha)
    }

    /// A smaller copy of `size` pixels (scale 1), the whole image scaled into it; nil for an image without content.
    /// https://developer.apple.com/documentation/uikit/uiimage/preparingthumbnail(of:)
    open func preparingThumbnail(of size: CGSize) -> UIImage? {
        let width = Int(size.width.rounded())
        let height = Int(size.height.rounded())
        guard width > 0, height > 0, let pixels else { return nil }
        var thumbnail = PixelBuffer(width: width, height: height, opaque: pixels.opaque)
        thumbnail.draw(
            pixels, in: CGRect(x: 0, y: 0, width: width, height: height), alpha: 1,
            clip: PixelRect(x: 0, y: 0, width: width, height: height))
        return UIImage(pixels: thumbnail, scale: 1)
    }

    /// ``preparingThumbnail(of:)``, for `await`.
    /// https://developer.apple.com/documentation/uikit/uiimage/bypreparingthumbnail(ofsize:)
    open func byPreparingThumbnail(ofSize size: CGSize) async -> UIImage? {
        preparingThumbnail(of: size)
    }

    /// ``preparingThumbnail(of:)`` on a background queue.
    /// https://developer.apple.com/documentation/uikit/uiimage/preparethumbnail(of:completionhandler:)
    open func prepareThumbnail(of size: CGSize, completionHandler: @escaping @Sendable (UIImage?) -> Void) {
        DispatchQueue.global().async { [self] in completionHandler(preparingThumbnail(of: size)) }
    }

    /// 2 for `name@2x.png`, 3 for `name@3x.jpg`, else 1.
    static func scale(ofFileNamed path: String) -> CGFloat {
        let stem = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        if stem.hasSuffix("@3x") { return 3 }
        if stem.hasSuffix("@2x") { return 2 }
        return 1
    }

    /// How an image is turned when drawn. https://developer.apple.com/documentation/uikit/uiimage/orientation
    public enum Orientation: Int, Sendable {
        case up, down, left, right, upMirrored, downMirrored, leftMirrored, rightMirrored
    }
}
