import Foundation
import Synchronization

/// The continuous clock, with sleeps that give everything back the moment they are cancelled.
///
/// `Task.sleep` on Linux keeps a cancelled sleep's timer job alive until its original deadline. Every payload
/// arms a 30 s extension budget and 5 s download deadlines and cancels them within milliseconds, so a fast replay
/// held every timer of the last half minute: memory grew with the corpus (about 1.5 KB per payload at 2,000
/// payloads a second). Here every sleep waits in one ``DeadlineQueue``: arming or cancelling one is a lock and a
/// heap operation, and cancelling removes it at once.
public struct CancellableSleepClock: Clock, Sendable {
    public typealias Instant = ContinuousClock.Instant
    public typealias Duration = Swift.Duration

    public init() {}

    public var now: Instant { ContinuousClock.now }
    public var minimumResolution: Duration { ContinuousClock().minimumResolution }

    /// Sleeps armed and not yet ended, in this process (for tests and diagnostics).
    public static var pendingSleeps: Int { DeadlineQueue.shared.count }

    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let sleep = Sleep()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                sleep.arm(continuation, until: deadline)
            }
        } onCancel: {
            sleep.cancel()
        }
    }

    /// One sleep's place in the queue; whoever takes its continuation out of the queue resumes it, exactly once.
    private final class Sleep: Sendable {
        private struct State {
            var id: UInt64?
            var cancelled = false
        }
        private let state = Mutex(State())

        func arm(_ continuation: CheckedContinuation<Void, any Error>, until deadline: Instant) {
            let cancelled = state.withLock { state -> Bool in
                if state.cancelled { return true }
                state.id = DeadlineQueue.shared.arm(deadline, continuation)
                return false
            }
            if cancelled { continuation.resume(throwing: CancellationError()) }
        }

        func cancel() {
            let continuation = state.withLock { state -> CheckedContinuation<Void, any Error>? in
                state.cancelled = true
                guard let id = state.id else { return nil }
                return DeadlineQueue.shared.cancel(id)
            }
            continuation?.resume(throwing: CancellationError())
        }
    }
}

/// One thread that resumes sleeps at their deadlines. Arming and cancelling take a lock and a heap operation and
/// wake the thread only when a new sleep ends before every other one; a cancelled sleep leaves nothing behind.
final class DeadlineQueue: @unchecked Sendable {
    static let shared = DeadlineQueue()

    private struct Entry {
        let deadline: ContinuousClock.Instant
        let id: UInt64
        let continuation: CheckedContinuation<Void, any Error>
    }

    // Everything below is guarded by `condition`.
    private let condition = NSCondition()
    /// A binary min-heap by deadline, and each entry's index in it, so a cancelled entry leaves at once.
    private var heap: [Entry] = []
    private var positions: [UInt64: Int] = [:]
    private var nextID: UInt64 = 0
    private var started = false

    var count: Int {
        condition.lock()
        defer { condition.unlock() }
        return heap.count
    }

    /// Queues `continuation` to be resumed at `deadline` (at once when it has passed); returns its id.
    func arm(_ deadline: ContinuousClock.Instant, _ continuation: CheckedContinuation<Void, any Error>) -> UInt64 {
        condition.lock()
        nextID += 1
        let id = nextID
        heap.append(Entry(deadline: deadline, id: id, continuation: continuation))
        positions[id] = heap.count - 1
        siftUp(heap.count - 1)
        if !started {
            started = true
            let thread = Thread { [self] in run() }
            thread.name = "richpush-deadlines"
            thread.start()
        }
        if heap[0].id == id { condition.signal() }
        condition.unlock()
        return id
    }

    /// Takes a sleep out of the queue; its continuation, or nil when it already ended.
    func cancel(_ id: UInt64) -> CheckedContinuation<Void, any Error>? {
        condition.lock()
        defer { condition.unlock() }
        guard let index = positions[id] else { return nil }
        return remove(at: index).continuation
    }

    private func run() {
        condition.lock()
        while true {
            guard let first = heap.first else {
                condition.wait()
                continue
            }
            let now = ContinuousClock.now
            if first.deadline <= now {
                var due: [CheckedContinuation<Void, any Error>] = []
                while let next = heap.first, next.deadline <= now { due.append(remove(at: 0).continuation) }
                condition.unlock()
                for continuation in due { continuation.resume() }
                condition.lock()
                continue
            }
            // At most a second at a time: the wait is on the wall clock, the deadlines on the continuous one.
            let wait = min(now.duration(to: first.deadline), .seconds(1))
            _ = condition.wait(
                until: Date(
                    timeIntervalSinceNow: Double(wait.components.seconds) + Double(wait.components.attoseconds) / 1e18))
        }
    }

    // MARK: - Heap

    private func remove(at index: Int) -> Entry {
        let entry = heap[index]
        positions[entry.id] = nil
        let last = heap.removeLast()
        if index < heap.count {
            heap[index] = last
            positions[last.id] = index
            siftDown(index)
            siftUp(index)
        }
        return entry
    }

    private func siftUp(_ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].deadline < heap[parent].deadline else { return }
            swapAt(child, parent)
            child = parent
        }
    }

    private func siftDown(_ start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < heap.count, heap[left].deadline < heap[smallest].deadline { smallest = left }
            if right < heap.count, heap[right].deadline < heap[smallest].deadline { smallest = right }
            guard smallest != parent else { return }
            swapAt(parent, smallest)
            parent = smallest
        }
    }

    private func swapAt(_ a: Int, _ b: Int) {
        heap.swapAt(a, b)
        positions[heap[a].id] = a
        positions[heap[b].id] = b
    }
}
