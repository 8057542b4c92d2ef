import Foundation

// The older image context functions (before UIGraphicsImageRenderer), still common in resizing code.

/// Starts drawing into a transparent bitmap of `size` points at scale 1, made the current context.
/// https://developer.apple.com/documentation/uikit/uigraphicsbeginimagecontext(_:)
public func UIGraphicsBeginImageContext(_ size: CGSize) {
    UIGraphicsBeginImageContextWithOptions(size, false, 1)
}

/// Starts drawing into a bitmap of `size` points; `scale` 0 is the main screen's (3 under richpush).
/// https://developer.apple.com/documentation/uikit/uigraphicsbeginimagecontextwithoptions(_:_:_:)
public func UIGraphicsBeginImageContextWithOptions(_ size: CGSize, _ opaque: Bool, _ scale: CGFloat) {
    GraphicsContext.push(
        GraphicsContext(size: size, scale: scale > 0 ? scale : UIScreen.main.scale, opaque: opaque))
}

/// What the current image context holds; nil without one.
/// https://developer.apple.com/documentation/uikit/uigraphicsgetimagefromcurrentimagecontext()
public func UIGraphicsGetImageFromCurrentImageContext() -> UIImage? {
    GraphicsContext.current?.image
}

/// Ends the current image context. https://developer.apple.com/documentation/uikit/uigraphicsendimagecontext()
public func UIGraphicsEndImageContext() {
    GraphicsContext.pop()
}

/// Fills `rect` with the current fill colour. https://developer.apple.com/documentation/uikit/uirectfill(_:)
public func UIRectFill(_ rect: CGRect) {
    GraphicsContext.current?.fill(rect)
}

/// Outlines `rect` with the current stroke colour. https://developer.apple.com/documentation/uikit/uirectframe(_:)
public func UIRectFrame(_ rect: CGRect) {
    GraphicsContext.current?.stroke(rect)
}
