import Dispatch
import Synchronization

/// The continuous clock, with sleeps that give everything back the moment they are cancelled.
///
/// `Task.sleep` on Linux keeps a cancelled sleep's timer job alive until its original deadline. Every payload
/// arms a 30 s extension budget and 5 s download deadlines and cancels them within milliseconds, so a fast replay
/// held every timer of the last half minute: memory grew with the corpus (about 1.5 KB per payload at 2,000
/// payloads a second). Here a sleep is a dispatch timer that is cancelled and released with the sleep.
public struct CancellableSleepClock: Clock, Sendable {
    public typealias Instant = ContinuousClock.Instant
    public typealias Duration = Swift.Duration

    public init() {}

    public var now: Instant { ContinuousClock.now }
    public var minimumResolution: Duration { ContinuousClock().minimumResolution }

    /// Sleeps armed and not yet ended, in this process (for tests and diagnostics).
    public static var pendingSleeps: Int { pending.load(ordering: .relaxed) }
    private static let pending = Atomic<Int>(0)

    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let sleep = Sleep()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                sleep.start(continuation, after: ContinuousClock.now.duration(to: deadline))
            }
        } onCancel: {
            sleep.end(throwing: CancellationError())
        }
    }

    /// A dispatch timer: dispatch sources may be scheduled, resumed and cancelled from any thread.
    private struct Timer: @unchecked Sendable {
        let source: any DispatchSourceTimer
    }

    /// One sleep: its continuation and timer, ended exactly once by the timer or by cancellation.
    private final class Sleep: Sendable {
        private struct State {
            var continuation: CheckedContinuation<Void, any Error>?
            var timer: Timer?
            var ended = false
            var cancelled = false
        }
        private let state = Mutex(State())

        func start(_ continuation: CheckedContinuation<Void, any Error>, after delay: Duration) {
            let armed = state.withLock { state -> Bool in
                if state.cancelled { return false }
                state.continuation = continuation
                return true
            }
            guard armed else {
                continuation.resume(throwing: CancellationError())
                return
            }
            let timer = Timer(source: DispatchSource.makeTimerSource(queue: .global()))
            let (seconds, attoseconds) = max(delay, .zero).components
            let nanoseconds = min(
                Int64(Int32.max) * 1_000_000_000, seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
            timer.source.schedule(deadline: .now() + .nanoseconds(Int(nanoseconds)), leeway: .milliseconds(1))
            timer.source.setEventHandler { [weak self] in self?.end(throwing: nil) }
            let stored = state.withLock { state -> Bool in
                if state.ended { return false }
                state.timer = timer
                CancellableSleepClock.pending.add(1, ordering: .relaxed)
                return true
            }
            // A suspended dispatch source must not be released: resume it even when the sleep already ended.
            timer.source.resume()
            if !stored { timer.source.cancel() }
        }

        /// Ends the sleep: normally (`error` nil) when the timer fires, with the error when cancelled.
        func end(throwing error: (any Error)?) {
            let (continuation, timer) = state.withLock {
                state -> (CheckedContinuation<Void, any Error>?, Timer?) in
                if error != nil { state.cancelled = true }
                guard !state.ended, let continuation = state.continuation else { return (nil, nil) }
                state.ended = true
                defer {
                    state.continuation = nil
                    state.timer = nil
                }
                return (continuation, state.timer)
            }
            guard let continuation else { return }
            if let timer {
                timer.source.setEventHandler {}
                timer.source.cancel()
                CancellableSleepClock.pending.subtract(1, ordering: .relaxed)
            }
            if let error { continuation.resume(throwing: error) } else { continuation.resume() }
        }
    }
}
