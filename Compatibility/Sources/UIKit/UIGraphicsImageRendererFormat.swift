import Foundation

/// How an image renderer's bitmap is made: its scale and whether it is opaque.
/// https://developer.apple.com/documentation/uikit/uigraphicsimagerendererformat
open class UIGraphicsImageRendererFormat: UIGraphicsRendererFormat, @unchecked Sendable {
    /// Pixels per point; the main screen's scale (3 under richpush, see ``UIScreen``) unless set.
    /// https://developer.apple.com/documentation/uikit/uigraphicsimagerendererformat/scale
    open var scale: CGFloat = UIScreen.main.scale

    /// An opaque bitmap starts black and ignores alpha; its PNG has no alpha channel.
    /// https://developer.apple.com/documentation/uikit/uigraphicsimagerendererformat/opaque
    open var opaque = false

    /// Accepted and ignored: richpush draws 8-bit sRGB.
    /// https://developer.apple.com/documentation/uikit/uigraphicsimagerendererformat/preferredrange
    open var preferredRange = Range.automatic

    /// https://developer.apple.com/documentation/uikit/uigraphicsimagerendererformat/prefersextendedrange
    open var prefersExtendedRange = false

    public required init() { super.init() }

    override func copied() -> Self {
        let copy = super.copied()
        copy.scale = scale
        copy.opaque = opaque
        copy.preferredRange = preferredRange
        copy.prefersExtendedRange = prefersExtendedRange
        return copy
    }

    /// https://developer.apple.com/documentation/uikit/uigraphicsimagerendererformat/range
    public enum Range: Int, Sendable {
        case unspecified = -1
        case automatic = 0
        case extended = 1
        case standard = 2
    }
}
