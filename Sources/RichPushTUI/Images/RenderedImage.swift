import RichPushCore
import RichPushGraphics

/// An attachment drawn as cells, or why it could not be.
enum RenderedImage: Equatable, Sendable {
    /// One cell image per frame, and how long each stays on screen, in seconds.
    case frames([CellImage], delays: [Double])
    case failed(String)

    /// The frame on screen `elapsed` seconds after the animation started (the first for a still image).
    func frame(at elapsed: Double) -> CellImage? {
        guard case .frames(let frames, let delays) = self, !frames.isEmpty else { return nil }
        return frames[Self.frameIndex(delays: delays, at: elapsed)]
    }

    var isAnimated: Bool {
        if case .frames(let frames, _) = self { return frames.count > 1 }
        return false
    }

    /// Seconds from `elapsed` until the next frame shows; nil for a still image.
    func timeToNextFrame(at elapsed: Double) -> Double? {
        guard case .frames(let frames, let delays) = self, frames.count > 1 else { return nil }
        let total = delays.reduce(0, +)
        guard total > 0 else { return nil }
        var position = elapsed.truncatingRemainder(dividingBy: total)
        for delay in delays {
            if position < delay { return delay - position }
            position -= delay
        }
        return delays.first
    }

    static func frameIndex(delays: [Double], at elapsed: Double) -> Int {
        let total = delays.reduce(0, +)
        guard delays.count > 1, total > 0 else { return 0 }
        var position = max(0, elapsed).truncatingRemainder(dividingBy: total)
        for (index, delay) in delays.enumerated() {
            if position < delay { return index }
            position -= delay
        }
        return delays.count - 1
    }

    /// A GIF frame's delay as browsers (and iOS) play it: delays under 20 ms count as 100 ms.
    static func playedDelay(_ delay: Duration) -> Double {
        let seconds = delay.seconds
        return seconds < 0.02 ? 0.1 : seconds
    }
}
