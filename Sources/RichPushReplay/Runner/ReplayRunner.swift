import Foundation
public import RichPushCore
public import RichPushLibrary
import Synchronization

/// Replays payloads through the emulated device, many at once, and checks them against their expectations.
///
/// Two limits, kept apart: `jobs` extensions in flight (they mostly wait on downloads and timers, so many may),
/// and the CPU-bound work of turning each result into report text, which runs in `computePool` (one slot per
/// core by default). An extension's slot is free as soon as its delivery ends, whether or not its result has
/// been rendered yet, so CPU work never holds back the next extension.
public struct ReplayRunner: Sendable {
    public var system: NotificationSystem
    /// App state for payloads whose expectation does not set one.
    public var defaultState: AppState
    /// Extensions in flight at once, each in its own extension instance.
    public var jobs: Int
    /// Where results are rendered (and where the system decodes, when it is given the same pool).
    public var computePool: ComputePool
    /// Judges recorded refusals (`given.request`) again, as the push endpoint would; without it they fail with
    /// a sentence saying so.
    public var endpoint: (any EndpointJudging)?

    public init(
        system: NotificationSystem, defaultState: AppState = .background, jobs: Int = 8,
        computePool: ComputePool = ComputePool(), endpoint: (any EndpointJudging)? = nil
    ) {
        self.endpoint = endpoint
        self.system = system
        self.defaultState = defaultState
        self.jobs = max(1, jobs)
        self.computePool = computePool
    }

    /// The order in which results reach the caller.
    public enum Order: Sendable {
        /// Path order, the order the payloads were given: a result that finishes early waits (as its rendered
        /// output only) until every payload before it is done.
        case path
        /// As each finishes.
        case completion
    }

    /// Replays every payload; the items come back in the order given, whatever finished first.
    public func run(
        _ payloads: [LoadedPayload], progress: (@Sendable (_ done: Int, _ total: Int) -> Void)? = nil
    ) async -> ReplayReport {
        var items: [ReplayItem] = []
        items.reserveCapacity(payloads.count)
        let summary = await run(payloads, order: .path, progress: progress, prepare: { $0 }) { items.append($0) }
        return ReplayReport(items: items, elapsed: summary.elapsed)
    }

    /// Replays every payload, handing each result to `emit` in `order` once `prepare` has turned it into what the
    /// caller keeps, e.g. its report text. `prepare` runs where the result arrives, or in the compute pool with
    /// `prepareInComputePool` (for work that takes long, such as drawing a preview image: the cooperative threads
    /// must stay free for the network; a line of text does not need the two thread hand-offs the pool costs). Nothing else is kept: memory stays flat
    /// however many payloads there are, apart from results that finished ahead of their turn in path order.
    /// With `discardAttachments`, each attachment file goes once `prepare` is done with it, so disk use stays
    /// flat too (the default keeps them until the emulator shuts down, for callers that read them later).
    public func run<Output: Sendable, Failure: Error>(
        _ payloads: [LoadedPayload], order: Order,
        progress: (@Sendable (_ done: Int, _ total: Int) -> Void)? = nil,
        discardAttachments: Bool = false, prepareInComputePool: Bool = false,
        prepare: @escaping @Sendable (ReplayItem) -> Output,
        emit: (Output) async throws(Failure) -> Void
    ) async throws(Failure) -> ReplaySummary {
        try await run(
            count: payloads.count, loading: { payloads[$0] }, order: order, progress: progress,
            discardAttachments: discardAttachments, prepareInComputePool: prepareInComputePool, prepare: prepare,
            emit: emit)
    }

    /// As ``run(_:order:progress:discardAttachments:prepare:emit:)``, with payload `index` read by `load` only when
    /// its extension starts, so no payload is held before or after its turn: memory stays flat in the corpus.
    /// When `emit` throws (its reader went away), the payloads still running are cancelled and the error is
    /// thrown once they have ended.
    public func run<Output: Sendable, Failure: Error>(
        count: Int, loading load: @escaping @Sendable (_ index: Int) -> LoadedPayload, order: Order,
        progress: (@Sendable (_ done: Int, _ total: Int) -> Void)? = nil,
        discardAttachments: Bool = false, prepareInComputePool: Bool = false,
        prepare: @escaping @Sendable (ReplayItem) -> Output,
        emit: (Output) async throws(Failure) -> Void
    ) async throws(Failure) -> ReplaySummary {
        let start = ContinuousClock.now
        var summary = ReplaySummary()
        guard count > 0 else { return summary }
        let (events, feed) = AsyncStream<RunEvent<Output>>.makeStream()
        let pool = computePool
        // Results waiting for the pool count against this, so a saturated pool slows new extensions down
        // rather than piling up results; it is twice `jobs`, so a full set of extensions can always run while
        // the previous set waits to be rendered.
        let liveLimit = 2 * jobs
        // In path order, at most this many payloads past the oldest unfinished one are started, so results
        // waiting for their turn stay bounded behind one slow payload (which ends within its own deadlines).
        let window = max(1024, 4 * jobs)
        var failure: Failure?
        await withDiscardingTaskGroup { group in
            var next = 0
            var extensions = 0
            var live = 0
            var done = 0
            var waiting: [Int: Output] = [:]
            var nextToEmit = 0
            func startMore() {
                while next < count, extensions < jobs, live < liveLimit,
                    order == .completion || next < nextToEmit + window
                {
                    let index = next
                    next += 1
                    extensions += 1
                    live += 1
                    group.addTask {
                        // The slot is free once the notification is presented: decoding its image afterwards is
                        // CPU work, which waits for the pool, not for an extension slot. With one job the next
                        // payload waits for the whole delivery, so what the phone remembers (the badge, a thread's
                        // count) follows the payloads' order.
                        let slot = ExtensionSlot(feed)
                        let sequential = jobs == 1
                        let item = await replay(load(index)) { progress in
                            if !sequential, case .event(let event) = progress, event.kind == .presented { slot.free() }
                        }
                        slot.free()
                        let output = prepareInComputePool ? await pool.run { prepare(item) } : prepare(item)
                        if discardAttachments, let result = item.result { await system.discardAttachment(of: result) }
                        feed.yield(.finished(index, VerdictKind(item), output))
                    }
                }
            }
            startMore()
            receiving: for await event in events {
                switch event {
                case .extensionEnded:
                    extensions -= 1
                case .finished(let index, let verdict, let output):
                    live -= 1
                    done += 1
                    summary.count(verdict)
                    progress?(done, count)
                    do throws(Failure) {
                        switch order {
                        case .completion:
                            try await emit(output)
                        case .path:
                            waiting[index] = output
                            while let ready = waiting.removeValue(forKey: nextToEmit) {
                                nextToEmit += 1
                                try await emit(ready)
                            }
                        }
                    } catch {
                        failure = error
                        group.cancelAll()
                        break receiving
                    }
                }
                if done == count { break }
                startMore()
            }
            feed.finish()
        }
        if let failure { throw failure }
        summary.elapsed = (ContinuousClock.now - start).seconds
        return summary
    }

    /// Replays one payload and judges it; `observer` hears the delivery's progress.
    public func replay(
        _ payload: LoadedPayload, observer: (@Sendable (DeliveryProgress) -> Void)? = nil
    ) async -> ReplayItem {
        guard let input = payload.deliveryInput(in: payload.settings.appState ?? defaultState) else {
            let problem = "\(payload.file.path): \(payload.readError ?? "cannot read the file")"
            return ReplayItem(file: payload.file, result: nil, verdict: .failed([problem]), error: problem)
        }
        let result: DeliveryResult
        if let request = payload.settings.request, case .bytes(let body) = input.payload {
            // A recorded refusal: judged again by the endpoint's rules; accepted, it is delivered as live.
            guard let endpoint else {
                let problem = "\(payload.file.path): a recorded refusal needs the push endpoint's rules to be judged"
                return ReplayItem(file: payload.file, result: nil, verdict: .failed([problem]), error: problem)
            }
            if let rejection = endpoint.rejection(of: request, body: body, now: Date()) {
                result = .refused(rejection, origin: input.origin, appState: input.appState, bytes: body.count)
            } else {
                result = await system.deliver(input, observer: observer)
            }
        } else {
            result = await system.deliver(input, observer: observer)
        }

        if let problem = payload.expectationError {
            return ReplayItem(file: payload.file, result: result, verdict: .failed([problem]))
        }
        guard let expectation = payload.expectation else {
            return ReplayItem(file: payload.file, result: result, verdict: .unchecked)
        }
        let mismatches = ExpectationMatcher.mismatches(expected: expectation.expect, actual: result.jsonValue)
        return ReplayItem(
            file: payload.file, result: result,
            verdict: mismatches.isEmpty ? .passed : .failed(mismatches.map(\.description)))
    }
}

/// What the replay's children tell its loop.
private enum RunEvent<Output: Sendable>: Sendable {
    /// An extension's delivery ended: its slot is free.
    case extensionEnded
    /// A result is judged and prepared.
    case finished(Int, VerdictKind, Output)
}

/// One payload's extension slot, freed once: when its notification is presented, or when its delivery ends.
private final class ExtensionSlot<Output: Sendable>: Sendable {
    private let feed: AsyncStream<RunEvent<Output>>.Continuation
    private let freed = Atomic<Bool>(false)

    init(_ feed: AsyncStream<RunEvent<Output>>.Continuation) { self.feed = feed }

    func free() {
        guard !freed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        feed.yield(.extensionEnded)
    }
}

/// The verdict as the summary counts it.
enum VerdictKind: Sendable {
    case unchecked, passed, failed

    init(_ item: ReplayItem) {
        switch item.verdict {
        case .unchecked: self = .unchecked
        case .passed: self = .passed
        case .failed: self = .failed
        }
    }
}

/// The counts every report closes with, kept as counters while results stream past.
public struct ReplaySummary: Sendable, Equatable {
    public var total = 0
    public var passed = 0
    public var failed = 0
    public var unchecked = 0
    /// Wall-clock seconds the replay took.
    public var elapsed: Double = 0

    public init(total: Int = 0, passed: Int = 0, failed: Int = 0, unchecked: Int = 0, elapsed: Double = 0) {
        self.total = total
        self.passed = passed
        self.failed = failed
        self.unchecked = unchecked
        self.elapsed = elapsed
    }

    mutating func count(_ verdict: VerdictKind) {
        total += 1
        switch verdict {
        case .unchecked: unchecked += 1
        case .passed: passed += 1
        case .failed: failed += 1
        }
    }

    /// Counts one item.
    public mutating func count(_ item: ReplayItem) { count(VerdictKind(item)) }

    /// The closing line of every format.
    public var summaryLine: String { "\(passed) passed, \(failed) failed" }
}
