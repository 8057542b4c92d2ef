public import RichPushCore
public import RichPushLibrary

/// Replays payloads through the emulated device, many at once, and checks them against their expectations.
public struct ReplayRunner: Sendable {
    public var system: NotificationSystem
    /// App state for payloads whose expectation does not set one.
    public var defaultState: AppState
    /// Payloads in flight at once, each in its own extension instance.
    public var jobs: Int

    public init(system: NotificationSystem, defaultState: AppState = .background, jobs: Int = 8) {
        self.system = system
        self.defaultState = defaultState
        self.jobs = max(1, jobs)
    }

    /// Replays every payload; the items come back in the order given, whatever finished first.
    public func run(
        _ payloads: [LoadedPayload], progress: (@Sendable (_ done: Int, _ total: Int) -> Void)? = nil
    ) async -> ReplayReport {
        let start = ContinuousClock.now
        var items = [ReplayItem?](repeating: nil, count: payloads.count)
        await withTaskGroup(of: (Int, ReplayItem).self) { group in
            var next = 0
            func startNext() {
                guard next < payloads.count else { return }
                let index = next
                next += 1
                group.addTask { (index, await replay(payloads[index])) }
            }
            for _ in 0..<min(jobs, payloads.count) { startNext() }
            var done = 0
            while let (index, item) = await group.next() {
                items[index] = item
                done += 1
                progress?(done, payloads.count)
                startNext()
            }
        }
        let elapsed = (ContinuousClock.now - start).seconds
        return ReplayReport(items: items.compactMap { $0 }, elapsed: elapsed)
    }

    /// Replays one payload and judges it.
    public func replay(_ payload: LoadedPayload) async -> ReplayItem {
        let settings = payload.settings
        let state = settings.appState ?? defaultState
        let result: DeliveryResult
        if let bytes = payload.bytes {
            result = await system.deliver(payload: bytes, file: payload.file.path, appState: state, settings: settings)
        } else if let size = payload.oversizedBytes {
            result = system.reject(
                .oversizedFile(bytes: size), file: payload.file.path, appState: state, bytes: size, settings: settings)
        } else {
            let problem = "\(payload.file.path): \(payload.readError ?? "cannot read the file")"
            return ReplayItem(file: payload.file, result: nil, verdict: .failed([problem]), error: problem)
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
