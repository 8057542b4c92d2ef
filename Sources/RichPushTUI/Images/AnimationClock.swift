import RichPushCore
import RichPushGraphics

/// The detail view's animation clock: time runs while playing, and Space pauses it.
struct AnimationClock: Equatable, Sendable {
    /// Seconds played before the last pause.
    var playedBeforePause: Double = 0
    /// When playing resumed (seconds since the UI started); nil while paused.
    var playingSince: Double? = 0

    var isPaused: Bool { playingSince == nil }

    func elapsed(at now: Double) -> Double {
        playedBeforePause + (playingSince.map { max(0, now - $0) } ?? 0)
    }

    mutating func restart(at now: Double) {
        self = AnimationClock(playedBeforePause: 0, playingSince: now)
    }

    mutating func togglePause(at now: Double) {
        if let since = playingSince {
            playedBeforePause += max(0, now - since)
            playingSince = nil
        } else {
            playingSince = now
        }
    }
}
