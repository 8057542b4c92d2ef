import Foundation

/// A bitmap being drawn, as UIKit's image contexts keep one: the canvas, its scale, the colours `setFill()` and
/// `setStroke()` chose and the clip. The current one is the top of a stack per thread, as UIKit's is
/// (`UIGraphicsPushContext`), so drawing on a background queue does not reach another thread's renderer.
final class GraphicsContext {
    var canvas: PixelBuffer
    let scale: CGFloat
    /// The bounds' origin in points: drawing at this point lands on pixel (0, 0).
    let origin: CGPoint
    var fillColor: UIColor = .black
    var strokeColor: UIColor = .black
    /// In pixels.
    var clip: PixelRect

    /// A transparent canvas (black when `opaque`) of `size` points at `scale` pixels a point.
    init(size: CGSize, origin: CGPoint = .zero, scale: CGFloat, opaque: Bool) {
        self.scale = scale > 0 ? scale : 1
        self.origin = origin
        let width = Self.pixels(size.width, scale: self.scale)
        let height = Self.pixels(size.height, scale: self.scale)
        canvas = PixelBuffer(width: width, height: height, opaque: opaque)
        clip = PixelRect(x: 0, y: 0, width: width, height: height)
    }

    /// Pixels for a length in points, as Core Graphics sizes a bitmap: rounded up.
    static func pixels(_ points: CGFloat, scale: CGFloat) -> Int {
        let value = (points * scale).rounded(.up)
        guard value.isFinite, value > 0 else { return 0 }
        return Int(min(value, 1_000_000))
    }

    /// A rectangle in points as pixels of the canvas.
    func pixelRect(_ rect: CGRect) -> CGRect {
        CGRect(
            x: (rect.minX - origin.x) * scale, y: (rect.minY - origin.y) * scale, width: rect.width * scale,
            height: rect.height * scale)
    }

    func fill(_ rect: CGRect, with color: UIColor? = nil, copy: Bool = false) {
        canvas.fill(
            PixelBuffer.covered(pixelRect(rect), clip: clip), with: (color ?? fillColor).premultiplied, copy: copy)
    }

    /// Strokes the rectangle's outline with a line one point wide centred on its edges, as `UIRectFrame` and
    /// `stroke(_:)` do.
    func stroke(_ rect: CGRect) {
        let rect = rect.standardized
        let half: CGFloat = 0.5
        let edges = [
            CGRect(x: rect.minX - half, y: rect.minY - half, width: rect.width + 2 * half, height: 2 * half),
            CGRect(x: rect.minX - half, y: rect.maxY - half, width: rect.width + 2 * half, height: 2 * half),
            CGRect(x: rect.minX - half, y: rect.minY + half, width: 2 * half, height: rect.height - 2 * half),
            CGRect(x: rect.maxX - half, y: rect.minY + half, width: 2 * half, height: rect.height - 2 * half),
        ]
        for edge in edges where edge.width > 0 && edge.height > 0 { fill(edge, with: strokeColor) }
    }

    func clip(to rect: CGRect) {
        clip = PixelBuffer.covered(pixelRect(rect), clip: clip)
    }

    func draw(_ pixels: PixelBuffer, in rect: CGRect, alpha: Double) {
        canvas.draw(pixels, in: pixelRect(rect), alpha: alpha, clip: clip)
    }

    /// What has been drawn so far.
    var image: UIImage { UIImage(pixels: canvas, scale: scale) }

    // MARK: The current context

    private static let stackKey = "RichPushUIKitGraphicsContextStack"

    /// The contexts of this thread, innermost last.
    private final class Stack {
        var contexts: [GraphicsContext] = []
    }

    private static var stack: Stack {
        let dictionary = Thread.current.threadDictionary
        if let stack = dictionary[stackKey] as? Stack { return stack }
        let stack = Stack()
        dictionary[stackKey] = stack
        return stack
    }

    /// The context drawing goes to on this thread.
    static var current: GraphicsContext? { stack.contexts.last }

    static func push(_ context: GraphicsContext) { stack.contexts.append(context) }

    /// Removes the current context; nil when there was none.
    @discardableResult
    static func pop() -> GraphicsContext? { stack.contexts.popLast() }
}
