import Foundation
import RichPushCore
import Synchronization
import Testing

/// A door that work waits at until the test opens it, and that says when someone is waiting.
final class Gate: Sendable {
    private let state = Mutex<(open: Bool, waiting: [CheckedContinuation<Void, Never>])>((false, []))

    func wait() async {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state -> Bool in
                if state.open { return true }
                state.waiting.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    func open() {
        let waiting = state.withLock { state in
            state.open = true
            defer { state.waiting = [] }
            return state.waiting
        }
        for continuation in waiting { continuation.resume() }
    }
}

/// Counts events and lets a test wait until there have been `n` of them, without a clock.
final class Countdown: Sendable {
    private let state = Mutex<(count: Int, waiters: [(Int, CheckedContinuation<Void, Never>)])>((0, []))

    var count: Int { state.withLock { $0.count } }

    func tick() {
        let ready = state.withLock { state in
            state.count += 1
            let count = state.count
            let ready = state.waiters.filter { $0.0 <= count }.map(\.1)
            state.waiters.removeAll { $0.0 <= count }
            return ready
        }
        for continuation in ready { continuation.resume() }
    }

    /// Returns once `n` events happened.
    func reach(_ n: Int) async {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state -> Bool in
                if state.count >= n { return true }
                state.waiters.append((n, continuation))
                return false
            }
            if now { continuation.resume() }
        }
    }
}

/// What happened, in order.
final class Log<Entry: Sendable>: Sendable {
    private let state = Mutex<[Entry]>([])

    func append(_ entry: Entry) { state.withLock { $0.append(entry) } }
    var entries: [Entry] { state.withLock { $0 } }
}

@Suite(.timeLimit(.minutes(1))) struct ComputePoolTests {
    final class Flags: Sendable {
        let released = Atomic<Bool>(false)
        let started = Atomic<Int>(0)
    }

    @Test func synchronousWorkLeavesSwiftsCooperativeThreadsFree() async {
        // As many blocking pieces of work as there are cooperative threads (one per core).
        let pool = ComputePool(width: ProcessInfo.processInfo.activeProcessorCount)
        let door = DispatchSemaphore(value: 0)
        let flags = Flags()
        // A thread of its own opens the door after 20 s whatever happens: without the rule the test ends, failing.
        // (Long, because the rest of the suite keeps the cooperative threads busy too; with the rule the test opens
        // it as soon as it has looked.)
        let opened = Atomic<Bool>(false)
        let open: @Sendable () -> Void = {
            guard opened.compareExchange(expected: false, desired: true, ordering: .sequentiallyConsistent).exchanged
            else { return }
            flags.released.store(true, ordering: .sequentiallyConsistent)
            for _ in 0..<pool.width { door.signal() }
        }
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: 20)
            open()
        }
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<pool.width {
                group.addTask {
                    await pool.run {
                        flags.started.add(1, ordering: .sequentiallyConsistent)
                        door.wait()
                    }
                }
            }
            while flags.started.load(ordering: .sequentiallyConsistent) < pool.width
                && !flags.released.load(ordering: .sequentiallyConsistent)
            {
                await Task.yield()
            }
            // A task that needs a cooperative thread runs while every slot of the pool is blocked.
            let ranBeforeTheDoorOpened = await Task.detached {
                !flags.released.load(ordering: .sequentiallyConsistent)
            }.value
            #expect(ranBeforeTheDoorOpened, "a task waited for the blocking work: it ran on the cooperative threads")
            open()
        }
    }

    @Test func noMoreThanWidthRunAtOnce() async {
        let pool = ComputePool(width: 2)
        let gate = Gate()
        let started = Countdown()
        let tasks = (0..<3).map { _ in
            Task.immediate {
                await pool.run {
                    started.tick()
                    await gate.wait()
                }
            }
        }
        // Each task ran up to its first suspension already: two hold a slot, the third waits for one.
        await started.reach(2)
        #expect(started.count == 2)
        #expect(pool.running == 2)
        gate.open()
        for task in tasks { await task.value }
        #expect(started.count == 3)
        #expect(pool.running == 0)
    }

    @Test func waitingWorkRunsInArrivalOrder() async {
        let pool = ComputePool(width: 1)
        let gate = Gate()
        let holder = Task.immediate { await pool.run { await gate.wait() } }
        let log = Log<Int>()
        let waiters = (1...5).map { number in
            Task.immediate { await pool.run { log.append(number) } }
        }
        #expect(log.entries.isEmpty, "work ran while the only slot was held")
        gate.open()
        await holder.value
        for waiter in waiters { await waiter.value }
        #expect(log.entries == [1, 2, 3, 4, 5])
    }

    @Test func aFreedSlotGoesToTheOldestWaiterNotToANewcomer() async {
        let pool = ComputePool(width: 1)
        let gate = Gate()
        let holder = Task.immediate { await pool.run { await gate.wait() } }
        let log = Log<String>()
        let waiter = Task.immediate { await pool.run { log.append("waiter") } }
        gate.open()
        await holder.value
        // The holder's slot passed straight to the waiter: a newcomer arriving now queues behind it, even if
        // the waiter has not run yet.
        let newcomer = Task.immediate { await pool.run { log.append("newcomer") } }
        await waiter.value
        await newcomer.value
        #expect(log.entries == ["waiter", "newcomer"])
    }

    @Test func aThrowingPieceOfWorkFreesItsSlot() async {
        struct Failure: Error {}
        let pool = ComputePool(width: 1)
        await #expect(throws: Failure.self) { try await pool.run { throw Failure() } }
        #expect(pool.running == 0)
        #expect(await pool.run { 42 } == 42)
    }
}
