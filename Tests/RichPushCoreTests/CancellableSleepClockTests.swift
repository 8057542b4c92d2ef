import Foundation
import RichPushCore
import Testing

@Suite("CancellableSleepClock: sleeps that end, and let go, when cancelled")
struct CancellableSleepClockTests {
    @Test("a sleep lasts at least its duration and then returns")
    func sleepsItsDuration() async throws {
        let clock = CancellableSleepClock()
        let start = clock.now
        try await clock.sleep(for: .milliseconds(50))
        #expect(start.duration(to: clock.now) >= .milliseconds(50))
        // Already past: returns at once without throwing.
        try await clock.sleep(until: start)
    }

    @Test(
        "sleeps armed in any order each end at their own deadline, a short one under a long one included",
        .timeLimit(.minutes(1)))
    func mixedDeadlines() async throws {
        let clock = CancellableSleepClock()
        // Armed before the short ones (Task.immediate runs up to its first suspension at once).
        let long = Task.immediate { try await clock.sleep(for: .seconds(3600)) }
        let start = clock.now
        let durations: [Duration] = [.milliseconds(80), .milliseconds(20), .milliseconds(50), .zero, .milliseconds(10)]
        let woke = await withTaskGroup(of: (Duration, Duration).self) { group in
            for duration in durations {
                group.addTask {
                    try? await clock.sleep(until: start.advanced(by: duration))
                    return (duration, start.duration(to: clock.now))
                }
            }
            var all: [(Duration, Duration)] = []
            for await pair in group { all.append(pair) }
            return all
        }
        #expect(woke.count == durations.count)
        for (duration, elapsed) in woke { #expect(elapsed >= duration, "\(duration) ended after \(elapsed)") }
        long.cancel()
        await #expect(throws: CancellationError.self) { try await long.value }
    }

    @Test(
        "a cancelled sleep throws CancellationError long before its deadline; one cancelled first never arms",
        .timeLimit(.minutes(1)))
    func cancelledSleepEnds() async {
        let clock = CancellableSleepClock()
        // Armed before it is cancelled (Task.immediate runs up to its first suspension at once).
        let sleeping = Task.immediate { try await clock.sleep(for: .seconds(3600)) }
        sleeping.cancel()
        await #expect(throws: CancellationError.self) { try await sleeping.value }
        let already = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await clock.sleep(for: .seconds(3600))
        }
        await #expect(throws: CancellationError.self) { try await already.value }
    }

    /// In a process of its own, so no other test's sleeps are counted.
    @Test("cancelled sleeps keep nothing armed: 10,000 one-hour sleeps cancelled leave no timer behind")
    func cancelledSleepsLetGo() async {
        await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            let clock = CancellableSleepClock()
            let sleeps = (0..<10_000).map { _ in Task { try await clock.sleep(for: .seconds(3600)) } }
            // Wait until every sleep is armed, then cancel them all.
            while CancellableSleepClock.pendingSleeps < sleeps.count { await Task.yield() }
            for sleep in sleeps { sleep.cancel() }
            var cancelled = 0
            for sleep in sleeps where (try? await sleep.value) == nil { cancelled += 1 }
            let left = CancellableSleepClock.pendingSleeps
            FileHandle.standardError.write(Data("cancelled \(cancelled), armed \(left)\n".utf8))
            exit(cancelled == sleeps.count && left == 0 ? 0 : 1)
        }
    }
}
