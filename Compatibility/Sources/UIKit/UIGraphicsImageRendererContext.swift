import Foundation

/// What an image renderer's drawing actions draw with.
/// https://developer.apple.com/documentation/uikit/uigraphicsimagerenderercontext
///
/// `cgContext` is not provided: richpush has no Core Graphics. Draw with `UIImage.draw(in:)`, `UIColor.setFill()`
/// with ``fill(_:)``, ``stroke(_:)`` and ``clip(to:)``.
open class UIGraphicsImageRendererContext: UIGraphicsRendererContext {
    /// https://developer.apple.com/documentation/uikit/uigraphicsimagerenderercontext/format
    public let format: UIGraphicsImageRendererFormat

    init(context: GraphicsContext, format: UIGraphicsImageRendererFormat) {
        self.format = format
        super.init(context: context)
    }

    /// What has been drawn so far.
    /// https://developer.apple.com/documentation/uikit/uigraphicsimagerenderercontext/currentimage
    open var currentImage: UIImage { context.image }
}
