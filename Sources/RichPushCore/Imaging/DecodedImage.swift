/// Pixels decoded from an image file: one frame for PNG and JPEG, every frame (composited onto the canvas)
/// for an animated GIF.
public struct DecodedImage: Sendable, Equatable {
    /// One full frame: `width × height` pixels, 4 bytes each (R, G, B, A), rows top to bottom.
    public struct Frame: Sendable, Equatable {
        public var rgba: [UInt8]
        /// How long this frame stays on screen before the next one (zero for still images).
        public var delay: Duration

        public init(rgba: [UInt8], delay: Duration = .zero) {
            self.rgba = rgba
            self.delay = delay
        }
    }

    public var width: Int
    public var height: Int
    public var frames: [Frame]

    public init(width: Int, height: Int, frames: [Frame]) {
        self.width = width
        self.height = height
        self.frames = frames
    }

    /// The pixel at (`x`, `y`) of frame `frame` as (R, G, B, A).
    public func pixel(x: Int, y: Int, frame: Int = 0) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        let offset = (y * width + x) * 4
        let rgba = frames[frame].rgba
        return (rgba[offset], rgba[offset + 1], rgba[offset + 2], rgba[offset + 3])
    }
}
