import Foundation

/// An image's pixels as Core Graphics keeps them in a bitmap context: RGBA, 8 bits a channel, alpha premultiplied,
/// rows top to bottom.
struct PixelBuffer: Sendable, Equatable {
    var width: Int
    var height: Int
    /// No pixel is transparent (an opaque context, a JPEG): PNG is written without alpha.
    var opaque: Bool
    var pixels: [UInt8]

    /// Transparent black, as a new bitmap context starts (an opaque one is black and stays opaque).
    init(width: Int, height: Int, opaque: Bool) {
        self.width = max(width, 0)
        self.height = max(height, 0)
        self.opaque = opaque
        let count = self.width * self.height * 4
        pixels = [UInt8](repeating: 0, count: count)
        if opaque {
            for index in stride(from: 3, to: count, by: 4) { pixels[index] = 255 }
        }
    }

    /// The premultiplied pixel at (x, y).
    func pixel(x: Int, y: Int) -> (red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8) {
        let index = (y * width + x) * 4
        return (pixels[index], pixels[index + 1], pixels[index + 2], pixels[index + 3])
    }

    /// Whole pixels a rectangle in pixel coordinates covers, clipped to `clip`: edges round to the nearest pixel
    /// boundary, as Core Graphics fills an unaligned rectangle's mostly covered pixels.
    static func covered(_ rect: CGRect, clip: PixelRect) -> PixelRect {
        let rect = rect.standardized
        guard rect.minX.isFinite, rect.minY.isFinite, rect.maxX.isFinite, rect.maxY.isFinite else {
            return PixelRect(x: 0, y: 0, width: 0, height: 0)
        }
        func edge(_ value: CGFloat) -> Int { Int(min(max(value.rounded(), -1e9), 1e9)) }
        let left = edge(rect.minX)
        let top = edge(rect.minY)
        return PixelRect(x: left, y: top, width: edge(rect.maxX) - left, height: edge(rect.maxY) - top)
            .intersection(clip)
    }

    /// Paints `color` (premultiplied) over `area`: source-over, or replacing what is there with `copy`.
    mutating func fill(_ area: PixelRect, with color: PremultipliedColor, copy: Bool = false) {
        let area = area.intersection(PixelRect(x: 0, y: 0, width: width, height: height))
        guard !area.isEmpty else { return }
        let inverse = 255 - Int(color.alpha)
        let channels = [color.red, color.green, color.blue, color.alpha]
        let width = self.width
        pixels.withUnsafeMutableBufferPointer { pixels in
            for y in area.y..<area.maxY {
                var index = (y * width + area.x) * 4
                for _ in 0..<area.width {
                    for channel in 0..<4 {
                        pixels[index + channel] =
                            copy || inverse == 0
                            ? channels[channel] : Self.over(channels[channel], pixels[index + channel], inverse)
                    }
                    index += 4
                }
            }
        }
        if opaque { forceOpaque(area) }
    }

    /// Draws `source` scaled to fill `destination` (pixel coordinates, may be fractional and reach outside the
    /// canvas), source-over with `alpha`, only within `clip` (CImageCodecs' `rp_image_draw`: shrinking averages the
    /// source pixels under each destination pixel, enlarging is bilinear).
    mutating func draw(_ source: PixelBuffer, in destination: CGRect, alpha: Double, clip: PixelRect) {
        let destination = destination.standardized
        guard source.width > 0, source.height > 0, width > 0, height > 0 else { return }
        let opaque = self.opaque
        let (canvasWidth, canvasHeight) = (UInt32(width), UInt32(height))
        pixels.withUnsafeMutableBufferPointer { canvas in
            source.pixels.withUnsafeBufferPointer { pixels in
                _ = CImageCodecs.draw(
                    canvas.baseAddress, canvasWidth, canvasHeight, pixels.baseAddress, UInt32(source.width),
                    UInt32(source.height), destination.minX, destination.minY, destination.width,
                    destination.height, alpha, Int32(clamping: clip.x), Int32(clamping: clip.y),
                    Int32(clamping: clip.width), Int32(clamping: clip.height), opaque ? 1 : 0)
            }
        }
    }

    /// Source-over for one premultiplied channel: source + destination × (1 - source alpha).
    private static func over(_ source: UInt8, _ destination: UInt8, _ inverseAlpha: Int) -> UInt8 {
        UInt8(min(255, Int(source) + (Int(destination) * inverseAlpha + 127) / 255))
    }

    /// An opaque context ignores alpha: what was drawn keeps its premultiplied colour over black.
    private mutating func forceOpaque(_ area: PixelRect) {
        for y in area.y..<(area.y + area.height) {
            var index = (y * width + area.x) * 4 + 3
            for _ in 0..<area.width {
                pixels[index] = 255
                index += 4
            }
        }
    }
}

/// A rectangle of whole pixels.
struct PixelRect: Sendable, Equatable {
    var x: Int
    var y: Int
    var width: Int
    var height: Int

    var isEmpty: Bool { width <= 0 || height <= 0 }
    var maxX: Int { x + width }
    var maxY: Int { y + height }

    func intersection(_ other: PixelRect) -> PixelRect {
        let left = max(x, other.x)
        let top = max(y, other.y)
        let right = min(maxX, other.maxX)
        let bottom = min(maxY, other.maxY)
        return PixelRect(x: left, y: top, width: max(0, right - left), height: max(0, bottom - top))
    }
}

/// A colour as it is painted: 8-bit channels multiplied by alpha.
struct PremultipliedColor: Sendable, Equatable {
    var red: UInt8
    var green: UInt8
    var blue: UInt8
    var alpha: UInt8
}
