import Foundation

/// A colour in sRGB: what fills and strokes paint with. https://developer.apple.com/documentation/uikit/uicolor
///
/// Colours are fixed values: the dynamic system colours (`label`, `systemBackground`) are not provided, there being
/// no light or dark appearance to resolve them against in an extension's process.
open class UIColor: NSObject, @unchecked Sendable {
    // @unchecked: every stored property is a constant.
    let red: CGFloat
    let green: CGFloat
    let blue: CGFloat
    let alpha: CGFloat

    /// https://developer.apple.com/documentation/uikit/uicolor/init(red:green:blue:alpha:)
    public init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        self.red = Self.unit(red)
        self.green = Self.unit(green)
        self.blue = Self.unit(blue)
        self.alpha = Self.unit(alpha)
        super.init()
    }

    /// A grey: `white` 0 is black, 1 white. https://developer.apple.com/documentation/uikit/uicolor/init(white:alpha:)
    public convenience init(white: CGFloat, alpha: CGFloat) {
        self.init(red: white, green: white, blue: white, alpha: alpha)
    }

    /// Display P3 components, taken as sRGB here (richpush draws in sRGB only).
    /// https://developer.apple.com/documentation/uikit/uicolor/init(displayp3red:green:blue:alpha:)
    public convenience init(displayP3Red red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        self.init(red: red, green: green, blue: blue, alpha: alpha)
    }

    /// https://developer.apple.com/documentation/uikit/uicolor/init(hue:saturation:brightness:alpha:)
    public convenience init(hue: CGFloat, saturation: CGFloat, brightness: CGFloat, alpha: CGFloat) {
        let h = (Self.unit(hue) * 6).truncatingRemainder(dividingBy: 6)
        let s = Self.unit(saturation)
        let v = Self.unit(brightness)
        let sector = Int(h)
        let f = h - CGFloat(sector)
        let p = v * (1 - s)
        let q = v * (1 - s * f)
        let t = v * (1 - s * (1 - f))
        let (r, g, b): (CGFloat, CGFloat, CGFloat) =
            switch sector {
            case 0: (v, t, p)
            case 1: (q, v, p)
            case 2: (p, v, t)
            case 3: (p, q, v)
            case 4: (t, p, v)
            default: (v, p, q)
            }
        self.init(red: r, green: g, blue: b, alpha: alpha)
    }

    /// The same colour with another alpha.
    /// https://developer.apple.com/documentation/uikit/uicolor/withalphacomponent(_:)
    open func withAlphaComponent(_ alpha: CGFloat) -> UIColor {
        UIColor(red: red, green: green, blue: blue, alpha: alpha)
    }

    /// The components in sRGB, 0...1; true.
    /// https://developer.apple.com/documentation/uikit/uicolor/getred(_:green:blue:alpha:)
    @discardableResult
    open func getRed(
        _ red: UnsafeMutablePointer<CGFloat>?, green: UnsafeMutablePointer<CGFloat>?,
        blue: UnsafeMutablePointer<CGFloat>?, alpha: UnsafeMutablePointer<CGFloat>?
    ) -> Bool {
        red?.pointee = self.red
        green?.pointee = self.green
        blue?.pointee = self.blue
        alpha?.pointee = self.alpha
        return true
    }

    /// Makes this the colour fills paint with in the current image context.
    /// https://developer.apple.com/documentation/uikit/uicolor/setfill()
    open func setFill() { GraphicsContext.current?.fillColor = self }

    /// Makes this the colour strokes paint with in the current image context.
    /// https://developer.apple.com/documentation/uikit/uicolor/setstroke()
    open func setStroke() { GraphicsContext.current?.strokeColor = self }

    /// Both ``setFill()`` and ``setStroke()``. https://developer.apple.com/documentation/uikit/uicolor/set()
    open func set() {
        setFill()
        setStroke()
    }

    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? UIColor else { return false }
        return red == other.red && green == other.green && blue == other.blue && alpha == other.alpha
    }

    open override var hash: Int {
        var hasher = Hasher()
        hasher.combine(red)
        hasher.combine(green)
        hasher.combine(blue)
        hasher.combine(alpha)
        return hasher.finalize()
    }

    open override var description: String {
        "UIExtendedSRGBColorSpace \(red) \(green) \(blue) \(alpha)"
    }

    /// The colour as it is painted: 8-bit channels multiplied by alpha.
    var premultiplied: PremultipliedColor {
        func channel(_ value: CGFloat) -> UInt8 { UInt8((value * alpha * 255).rounded()) }
        return PremultipliedColor(
            red: channel(red), green: channel(green), blue: channel(blue), alpha: UInt8((alpha * 255).rounded()))
    }

    private static func unit(_ value: CGFloat) -> CGFloat {
        value.isNaN ? 0 : min(max(value, 0), 1)
    }

    // The fixed colours, with UIKit's components.
    // https://developer.apple.com/documentation/uikit/uicolor/standard-colors
    open class var black: UIColor { UIColor(white: 0, alpha: 1) }
    open class var darkGray: UIColor { UIColor(white: 1.0 / 3.0, alpha: 1) }
    open class var lightGray: UIColor { UIColor(white: 2.0 / 3.0, alpha: 1) }
    open class var white: UIColor { UIColor(white: 1, alpha: 1) }
    open class var gray: UIColor { UIColor(white: 0.5, alpha: 1) }
    open class var red: UIColor { UIColor(red: 1, green: 0, blue: 0, alpha: 1) }
    open class var green: UIColor { UIColor(red: 0, green: 1, blue: 0, alpha: 1) }
    open class var blue: UIColor { UIColor(red: 0, green: 0, blue: 1, alpha: 1) }
    open class var cyan: UIColor { UIColor(red: 0, green: 1, blue: 1, alpha: 1) }
    open class var yellow: UIColor { UIColor(red: 1, green: 1, blue: 0, alpha: 1) }
    open class var magenta: UIColor { UIColor(red: 1, green: 0, blue: 1, alpha: 1) }
    open class var orange: UIColor { UIColor(red: 1, green: 0.5, blue: 0, alpha: 1) }
    open class var purple: UIColor { UIColor(red: 0.5, green: 0, blue: 0.5, alpha: 1) }
    open class var brown: UIColor { UIColor(red: 0.6, green: 0.4, blue: 0.2, alpha: 1) }
    open class var clear: UIColor { UIColor(white: 0, alpha: 0) }
}
