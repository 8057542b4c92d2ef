import Foundation

/// A bitmap image, as Core Graphics' `CGImage` is to an extension: what `UIImage.cgImage` hands out and
/// `UIImage(cgImage:scale:orientation:)` takes back, measured and cropped.
/// https://developer.apple.com/documentation/coregraphics/cgimage
///
/// Its pixels are RGBA, 8 bits a channel, alpha premultiplied (a bitmap context's); the drawing and colour-space API
/// of Core Graphics is not here.
public final class CGImage: @unchecked Sendable {
    // @unchecked: immutable, as a CGImage on iOS.
    let buffer: PixelBuffer

    init(buffer: PixelBuffer) {
        self.buffer = buffer
    }

    /// https://developer.apple.com/documentation/coregraphics/cgimage/width
    public var width: Int { buffer.width }
    /// https://developer.apple.com/documentation/coregraphics/cgimage/height
    public var height: Int { buffer.height }
    /// https://developer.apple.com/documentation/coregraphics/cgimage/bitspercomponent
    public var bitsPerComponent: Int { 8 }
    /// https://developer.apple.com/documentation/coregraphics/cgimage/bitsperpixel
    public var bitsPerPixel: Int { 32 }
    /// https://developer.apple.com/documentation/coregraphics/cgimage/bytesperrow
    public var bytesPerRow: Int { buffer.width * 4 }

    /// The part of the image inside `rect` (pixels, origin top-left), rounded out to whole pixels; nil when `rect`
    /// misses the image. https://developer.apple.com/documentation/coregraphics/cgimage/cropping(to:)
    public func cropping(to rect: CGRect) -> CGImage? {
        let rect = rect.standardized.intersection(CGRect(x: 0, y: 0, width: width, height: height))
        guard !rect.isNull, !rect.isEmpty else { return nil }
        let left = Int(rect.minX.rounded(.down))
        let top = Int(rect.minY.rounded(.down))
        let right = Int(rect.maxX.rounded(.up))
        let bottom = Int(rect.maxY.rounded(.up))
        var cropped = PixelBuffer(width: right - left, height: bottom - top, opaque: buffer.opaque)
        for y in 0..<cropped.height {
            let from = ((top + y) * width + left) * 4
            let to = y * cropped.width * 4
            cropped.pixels.replaceSubrange(
                to..<to + cropped.width * 4, with: buffer.pixels[from..<from + cropped.width * 4])
        }
        return CGImage(buffer: cropped)
    }
}

extension PixelBuffer {
    /// These pixels turned upright from `orientation`, the way the image's data is stored: `.right` is turned
    /// 90° clockwise to show, `.left` counterclockwise, the mirrored ones flipped too (Exif orientations 1 to 8).
    /// https://developer.apple.com/documentation/uikit/uiimage/orientation
    func upright(from orientation: UIImage.Orientation) -> PixelBuffer {
        if orientation == .up { return self }
        let turned: Bool = [.left, .right, .leftMirrored, .rightMirrored].contains(orientation)
        var result = PixelBuffer(width: turned ? height : width, height: turned ? width : height, opaque: opaque)
        for y in 0..<result.height {
            for x in 0..<result.width {
                let (sourceX, sourceY) =
                    switch orientation {
                    case .up: (x, y)
                    case .down: (width - 1 - x, height - 1 - y)
                    case .left: (width - 1 - y, x)
                    case .right: (y, height - 1 - x)
                    case .upMirrored: (width - 1 - x, y)
                    case .downMirrored: (x, height - 1 - y)
                    case .leftMirrored: (y, x)
                    case .rightMirrored: (width - 1 - y, height - 1 - x)
                    }
                let from = (sourceY * width + sourceX) * 4
                let to = (y * result.width + x) * 4
                for channel in 0..<4 { result.pixels[to + channel] = pixels[from + channel] }
            }
        }
        return result
    }
}

extension UIImage {
    /// The image's pixels as a `CGImage` (decoded now if they were not yet); nil for an image without content.
    /// https://developer.apple.com/documentation/uikit/uiimage/cgimage
    public var cgImage: CGImage? {
        pixels.map { CGImage(buffer: $0) }
    }

    /// An image of `cgImage`'s pixels at `scale`; an orientation other than `.up` is applied to the pixels here
    /// (UIKit keeps it and applies it when drawing: the size, the drawing and the encoded data come out the same).
    /// https://developer.apple.com/documentation/uikit/uiimage/init(cgimage:scale:orientation:)
    public convenience init(cgImage: CGImage, scale: CGFloat, orientation: UIImage.Orientation) {
        self.init(pixels: cgImage.buffer.upright(from: orientation), scale: scale)
    }

    /// https://developer.apple.com/documentation/uikit/uiimage/init(cgimage:)
    public convenience init(cgImage: CGImage) {
        self.init(cgImage: cgImage, scale: 1, orientation: .up)
    }
}

/// As Core Graphics describes a size to `debugPrint` and `String(reflecting:)`: "(100.0, 50.0)".
/// https://developer.apple.com/documentation/corefoundation/cgsize/debugdescription
extension CGSize: @retroactive CustomDebugStringConvertible {
    public var debugDescription: String { "(\(width), \(height))" }
}
