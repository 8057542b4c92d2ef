import Foundation

/// Draws into a bitmap and gives it as an image, PNG or JPEG: how extensions resize a downloaded picture.
/// https://developer.apple.com/documentation/uikit/uigraphicsimagerenderer
///
/// The bitmap has the bounds' size in points times the format's scale in pixels (3 by default: see ``UIScreen``);
/// it starts transparent (black when the format is opaque). Drawing actions run on the calling thread with the
/// renderer's context current, so `UIImage.draw(in:)` and `UIColor.setFill()` inside them reach it.
open class UIGraphicsImageRenderer: UIGraphicsRenderer, @unchecked Sendable {
    // @unchecked: as ``UIGraphicsRenderer``.
    /// https://developer.apple.com/documentation/uikit/uigraphicsimagerenderer/drawingactions
    public typealias DrawingActions = (UIGraphicsImageRendererContext) -> Void

    /// https://developer.apple.com/documentation/uikit/uigraphicsimagerenderer/format
    open override var format: UIGraphicsImageRendererFormat {
        // The initialisers only take image formats, and the copy keeps its class.
        rendererFormat as? UIGraphicsImageRendererFormat ?? UIGraphicsImageRendererFormat()
    }

    /// https://developer.apple.com/documentation/uikit/uigraphicsimagerenderer/init(size:)
    public convenience init(size: CGSize) {
        self.init(size: size, format: .default())
    }

    /// https://developer.apple.com/documentation/uikit/uigraphicsimagerenderer/init(size:format:)
    public convenience init(size: CGSize, format: UIGraphicsImageRendererFormat) {
        self.init(bounds: CGRect(origin: .zero, size: size), format: format)
    }

    /// https://developer.apple.com/documentation/uikit/uigraphicsimagerenderer/init(bounds:format:)
    public init(bounds: CGRect, format: UIGraphicsImageRendererFormat) {
        super.init(bounds: bounds, format: format)
    }

    /// https://developer.apple.com/documentation/uikit/uigraphicsimagerenderer/init(bounds:)
    public convenience init(bounds: CGRect) {
        self.init(bounds: bounds, format: .default())
    }

    /// Runs `actions` on a fresh bitmap and returns it as an image of the format's scale.
    /// https://developer.apple.com/documentation/uikit/uigraphicsimagerenderer/image(actions:)
    open func image(actions: DrawingActions) -> UIImage {
        render(actions).image
    }

    /// Runs `actions` and returns the bitmap as PNG.
    /// https://developer.apple.com/documentation/uikit/uigraphicsimagerenderer/pngdata(actions:)
    open func pngData(actions: DrawingActions) -> Data {
        image(actions: actions).pngData() ?? Data()
    }

    /// Runs `actions` and returns the bitmap as JPEG at `compressionQuality` 0...1.
    /// https://developer.apple.com/documentation/uikit/uigraphicsimagerenderer/jpegdata(withcompressionquality:actions:)
    open func jpegData(withCompressionQuality compressionQuality: CGFloat, actions: DrawingActions) -> Data {
        image(actions: actions).jpegData(compressionQuality: compressionQuality) ?? Data()
    }

    private func render(_ actions: DrawingActions) -> GraphicsContext {
        let format = self.format
        let context = GraphicsContext(
            size: bounds.size, origin: bounds.origin, scale: format.scale, opaque: format.opaque)
        GraphicsContext.push(context)
        defer { GraphicsContext.pop() }
        actions(UIGraphicsImageRendererContext(context: context, format: format))
        return context
    }
}
