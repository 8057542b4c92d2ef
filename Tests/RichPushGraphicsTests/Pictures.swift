import RichPushCore
import RichPushTestSupport

/// Small pictures whose colours the tests know, built pixel by pixel.
enum Pictures {
    typealias RGBA = Pixels.RGBA
    static let red: RGBA = (255, 0, 0, 255)
    static let blue: RGBA = (0, 0, 255, 255)
    static let white: RGBA = (255, 255, 255, 255)
    static let black: RGBA = (0, 0, 0, 255)
    static let green: RGBA = (0, 255, 0, 255)

    /// `width`x`height` pixels, each the colour `color(x, y)` says.
    static func image(width: Int, height: Int, delay: Duration = .zero, _ color: (Int, Int) -> RGBA) -> DecodedImage {
        DecodedImage(width: width, height: height, frames: [frame(width: width, height: height, delay: delay, color)])
    }

    static func frame(width: Int, height: Int, delay: Duration = .zero, _ color: (Int, Int) -> RGBA)
        -> DecodedImage.Frame
    {
        Pixels.frame(width: width, height: height, delay: delay, color)
    }

    /// Left half red, right half blue.
    static func redBlue(width: Int = 64, height: Int = 32) -> DecodedImage {
        image(width: width, height: height) { x, _ in x < width / 2 ? red : blue }
    }

    /// Top half white, bottom half black.
    static func whiteOverBlack(width: Int = 32, height: Int = 32) -> DecodedImage {
        image(width: width, height: height) { _, y in y < height / 2 ? white : black }
    }
}
