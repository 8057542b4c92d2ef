import Foundation
import Synchronization

/// A bounded pool for CPU-bound work (decoding, hashing, rendering reports), kept apart from the extensions
/// in flight: waiting on the network is not work, so any number of downloads may wait while at most `width`
/// pieces of CPU work run. Work beyond the width waits its turn in arrival order; waiting here is richpush's
/// own queueing and never counts against a payload's deadlines.
///
/// The work runs on `width` threads of the pool's own (a task executor), not on Swift's cooperative threads: those
/// are one per core, and synchronous decoding on them would leave none for the network while it runs.
public final class ComputePool: Sendable {
    /// How many pieces of work may run at once.
    public let width: Int
    private let state: Mutex<State>
    private let executor: ThreadPoolExecutor

    private struct State {
        var running = 0
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    /// One slot per core by default.
    public init(width: Int = ComputePool.defaultWidth) {
        self.width = max(1, width)
        self.state = Mutex(State())
        self.executor = ThreadPoolExecutor(threads: self.width, name: "richpush-compute")
    }

    /// The number of active processor cores.
    public static var defaultWidth: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }

    /// Runs `work` once a slot is free, and frees the slot when it returns or throws.
    public func run<T: Sendable>(_ work: @Sendable () async throws -> T) async rethrows -> T {
        await acquire()
        defer { release() }
        return try await withTaskExecutorPreference(executor) { try await work() }
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

/// A task executor of its own threads: jobs run in arrival order on at most `threads` threads, started when work
/// arrives and ended after a second with nothing to do (a pool nobody uses holds no thread).
final class ThreadPoolExecutor: TaskExecutor, @unchecked Sendable {
    // @unchecked: every field is guarded by `lock`.
    private let lock = NSCondition()
    private var jobs: [UnownedJob] = []
    private var started = 0
    private var idle = 0
    private let maximum: Int
    private let name: String

    init(threads: Int, name: String) {
        self.maximum = max(1, threads)
        self.name = name
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        lock.lock()
        jobs.append(unowned)
        let start = idle == 0 && started < maximum
        if start { started += 1 }
        lock.signal()
        lock.unlock()
        if start {
            let thread = Thread { self.serve() }
            thread.name = name
            thread.start()
        }
    }

    private func serve() {
        lock.lock()
        while true {
            if jobs.isEmpty {
                idle += 1
                let woken = lock.wait(until: Date(timeIntervalSinceNow: 1))
                idle -= 1
                if !woken && jobs.isEmpty {
                    started -= 1
                    lock.unlock()
                    return
                }
                continue
            }
            let job = jobs.removeFirst()
            lock.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
            lock.lock()
        }
    }
}
