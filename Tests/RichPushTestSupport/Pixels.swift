import RichPushCore

/// Pictures built pixel by pixel, so a test knows every colour.
public enum Pixels {
    public typealias RGBA = (r: UInt8, g: UInt8, b: UInt8, a: UInt8)

    /// One `width`x`height` frame, each pixel the colour `color(x, y)` says.
    public static func frame(width: Int, height: Int, delay: Duration = .zero, _ color: (Int, Int) -> RGBA)
        -> DecodedImage.Frame
    {
        var rgba: [UInt8] = []
        rgba.reserveCapacity(width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let pixel = color(x, y)
                rgba += [pixel.r, pixel.g, pixel.b, pixel.a]
            }
        }
        return DecodedImage.Frame(rgba: rgba, delay: delay)
    }
}
