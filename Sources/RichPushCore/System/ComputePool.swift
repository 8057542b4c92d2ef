import Foundation
import Synchronization

/// A bounded pool for CPU-bound work (decoding, hashing, rendering reports), kept apart from the extensions
/// in flight: waiting on the network is not work, so any number of downloads may wait while at most `width`
/// pieces of CPU work run. Work beyond the width waits its turn in arrival order; waiting here is richpush's
/// own queueing and never counts against a payload's deadlines.
public final class ComputePool: Sendable {
    /// How many pieces of work may run at once.
    public let width: Int
    private let state: Mutex<State>

    private struct State {
        var running = 0
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    /// One slot per core by default.
    public init(width: Int = ComputePool.defaultWidth) {
        self.width = max(1, width)
        self.state = Mutex(State())
    }

    /// The number of active processor cores.
    public static var defaultWidth: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }

    /// Runs `work` once a slot is free, and frees the slot when it returns or throws.
    public func run<T: Sendable>(_ work: @Sendable () async throws -> T) async rethrows -> T {
        await acquire()
        defer { release() }
        return try await work()
    }

    /// Pieces of work running now.
    public var running: Int { state.withLock { $0.running } }

    private func acquire() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumeNow = state.withLock { state -> Bool in
                if state.running < width {
                    state.running += 1
                    return true
                }
                state.waiters.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    private func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if state.waiters.isEmpty {
                state.running -= 1
                return nil
            }
            // The slot passes straight to the next waiter.
            return state.waiters.removeFirst()
        }
        next?.resume()
    }
}
