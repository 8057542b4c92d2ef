import Foundation

/// The base of UIKit's renderers: the area drawn and its format.
/// https://developer.apple.com/documentation/uikit/uigraphicsrenderer
open class UIGraphicsRenderer: NSObject, @unchecked Sendable {
    // @unchecked: every stored property is a constant (the format is the caller's to leave alone, as on iOS).
    /// The renderer's own copy of the format it was made with.
    let rendererFormat: UIGraphicsRendererFormat
    let bounds: CGRect

    /// https://developer.apple.com/documentation/uikit/uigraphicsrenderer/format
    open var format: UIGraphicsRendererFormat { rendererFormat }

    /// https://developer.apple.com/documentation/uikit/uigraphicsrenderer/init(bounds:format:)
    public init(bounds: CGRect, format: UIGraphicsRendererFormat) {
        self.bounds = bounds
        // The renderer keeps a copy of its own, which knows the renderer's bounds.
        let own = format.copied()
        own.bounds = bounds
        rendererFormat = own
        super.init()
    }

    /// https://developer.apple.com/documentation/uikit/uigraphicsrenderer/allowsimageoutput
    open var allowsImageOutput: Bool { true }
}

/// The base of renderer formats. https://developer.apple.com/documentation/uikit/uigraphicsrendererformat
open class UIGraphicsRendererFormat: NSObject, @unchecked Sendable {
    // @unchecked: UIKit's formats are mutable objects handed to one renderer; so are these.

    /// The bounds of the renderer the format belongs to (zero until one has it).
    /// https://developer.apple.com/documentation/uikit/uigraphicsrendererformat/bounds
    open internal(set) var bounds = CGRect.zero

    /// https://developer.apple.com/documentation/uikit/uigraphicsrendererformat/init()
    public required override init() { super.init() }

    /// A copy with the same settings (subclasses copy theirs).
    func copied() -> Self {
        let copy = Self()
        copy.bounds = bounds
        return copy
    }

    /// The highest fidelity the device supports.
    /// https://developer.apple.com/documentation/uikit/uigraphicsrendererformat/default()
    open class func `default`() -> Self { Self() }

    /// The format for the main screen as it is.
    /// https://developer.apple.com/documentation/uikit/uigraphicsrendererformat/preferred()
    open class func preferred() -> Self { Self() }
}

/// The base of renderer contexts. https://developer.apple.com/documentation/uikit/uigraphicsrenderercontext
open class UIGraphicsRendererContext: NSObject {
    let context: GraphicsContext

    init(context: GraphicsContext) {
        self.context = context
        super.init()
    }

    /// Fills `rect` (points) with the colour `UIColor.setFill()` chose (black until then).
    /// https://developer.apple.com/documentation/uikit/uigraphicsrenderercontext/fill(_:)
    open func fill(_ rect: CGRect) { context.fill(rect) }

    /// Outlines `rect` with a one-point line of the colour `UIColor.setStroke()` chose.
    /// https://developer.apple.com/documentation/uikit/uigraphicsrenderercontext/stroke(_:)
    open func stroke(_ rect: CGRect) { context.stroke(rect) }

    /// Limits later drawing to `rect` (intersected with the clip so far).
    /// https://developer.apple.com/documentation/uikit/uigraphicsrenderercontext/clip(to:)
    open func clip(to rect: CGRect) { context.clip(to: rect) }
}
