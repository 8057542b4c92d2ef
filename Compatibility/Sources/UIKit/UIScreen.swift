import Foundation

/// The device's screen, as far as drawing needs it: its scale. https://developer.apple.com/documentation/uikit/uiscreen
///
/// richpush emulates an iPhone with a 3x display (393 x 852 points, as an iPhone 15): a renderer's default format,
/// and `UIGraphicsBeginImageContextWithOptions` with scale 0, draw 3 pixels a point, so a 300-point image is 900
/// pixels wide, as on such a phone.
open class UIScreen: NSObject, @unchecked Sendable {
    // @unchecked: no stored state.

    /// https://developer.apple.com/documentation/uikit/uiscreen/main
    open class var main: UIScreen { UIScreen() }

    /// Pixels per point. https://developer.apple.com/documentation/uikit/uiscreen/scale
    open var scale: CGFloat { 3 }

    /// https://developer.apple.com/documentation/uikit/uiscreen/nativescale
    open var nativeScale: CGFloat { 3 }

    /// The screen in points. https://developer.apple.com/documentation/uikit/uiscreen/bounds
    open var bounds: CGRect { CGRect(x: 0, y: 0, width: 393, height: 852) }
}
