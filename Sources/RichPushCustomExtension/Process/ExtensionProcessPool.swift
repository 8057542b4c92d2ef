import Foundation
import RichPushCore
import Synchronization

/// The processes of a team's extension for one ``ExtensionProcessMode``, and which of them takes a notification:
/// - `each`: a new process, which ends with the notification;
/// - `reuse`, `same-instance`: the process alive takes the next notification once the previous one's content handler
///   was called (iOS queues them so, element-x-ios #2022); the others wait their turn;
/// - `concurrent`: the process alive takes up to ``concurrentLimit`` notifications at once.
///
/// A process that handled nothing for ``idleTimeout`` is ended, as iOS ends an extension it no longer needs; one
/// that ended (a crash, the memory limit, a budget run out) is replaced by the next notification. A notification's
/// budget starts when its process takes it, never while it waits for its turn.
final class ExtensionProcessPool: Sendable {
    let mode: ExtensionProcessMode
    let idleTimeout: Duration
    /// Processes alive at once, but in `each` (one on iOS).
    let maxProcesses: Int
    /// Notifications one process holds before their content handlers were called, in `concurrent`. Apple gives no
    /// number; richpush's choice, so 64 notifications in flight (replay's default `--jobs`) are not 64 downloads in
    /// one 24 MB process.
    static let concurrentLimit = 8

    /// Apple documents no idle time for a service extension's process; richpush keeps one 30 s.
    static let defaultIdleTimeout = Duration.seconds(30)

    typealias Launch = Task<Result<ExtensionProcess, CustomExtensionEnd.StartProblem>, Never>

    private struct Entry: Sendable {
        let process: ExtensionProcess
        /// Notifications it is serving now.
        var users = 0
        /// Notifications it was handed whose content handler was not called yet.
        var awaitingHandler = 0
        var idleTimer: Task<Void, Never>?
    }

    private struct State: Sendable {
        var entries: [ObjectIdentifier: Entry] = [:]
        /// Launches in progress.
        var launching: [Launch] = []
        /// Notifications waiting for their turn.
        var waiters: [UUID: CheckedContinuation<Bool, Never>] = [:]
        var closed = false
    }

    private let state = Mutex(State())

    init(
        mode: ExtensionProcessMode, idleTimeout: Duration = ExtensionProcessPool.defaultIdleTimeout,
        maxProcesses: Int = 1
    ) {
        self.mode = mode
        self.idleTimeout = idleTimeout
        self.maxProcesses = maxProcesses
    }

    /// Serves the notification in a process this mode chooses, and returns its run.
    func serve(
        _ invocation: CustomExtensionInvocation, host: ExtensionProcessHost, clock: any Clock<Duration>,
        emit: @escaping @Sendable (CustomExtensionEvent) -> Void
    ) async -> CustomExtensionRun {
        // A process chosen can end before the notification reaches it; the next one is tried then.
        for _ in 0..<3 {
            let process: ExtensionProcess
            switch await acquire(host: host) {
            case .success(let chosen): process = chosen
            case .failure(let problem):
                if Task.isCancelled {
                    return CustomExtensionRun(
                        end: .contentHandlerNeverCalled(.richpushStopped), contentHandlerCalls: 0, log: [])
                }
                return CustomExtensionRun(end: .failedToStart(problem), contentHandlerCalls: 0, log: [])
            }
            // The next notification's turn comes with this one's first content handler call.
            let turn = Once()
            let run = await process.serve(invocation, clock: clock) { event in
                if case .contentHandler(_, call: 1) = event { self.handlerCalled(process, once: turn) }
                emit(event)
            }
            handlerCalled(process, once: turn)
            await release(process)
            if let run { return run }
        }
        return CustomExtensionRun(
            end: .contentHandlerNeverCalled(
                .endedWithTheProcess("three processes in a row ended before the notification reached one")),
            contentHandlerCalls: 0, log: [])
    }

    /// A process for one more notification, counted until ``release(_:)``; waits for a turn when the mode says so.
    private func acquire(host: ExtensionProcessHost) async -> Result<ExtensionProcess, CustomExtensionEnd.StartProblem>
    {
        enum Choice {
            case process(ExtensionProcess)
            case launched(Launch)
            case wait
            case closed
        }
        let mode = self.mode
        let maxProcesses = self.maxProcesses
        while true {
            let choice = state.withLock { state -> Choice in
                guard !state.closed else { return .closed }
                for (key, entry) in state.entries where !entry.process.hasEnded {
                    let free =
                        switch mode {
                        case .each: false
                        case .reuse, .sameInstance: entry.awaitingHandler == 0
                        case .concurrent: entry.awaitingHandler < Self.concurrentLimit
                        }
                    guard free else { continue }
                    state.entries[key]!.users += 1
                    state.entries[key]!.awaitingHandler += 1
                    state.entries[key]!.idleTimer?.cancel()
                    state.entries[key]!.idleTimer = nil
                    return .process(entry.process)
                }
                let alive = state.entries.values.filter { !$0.process.hasEnded }.count + state.launching.count
                if mode != .each, alive >= maxProcesses { return .wait }
                let launch = Task { await ExtensionProcess.launch(host: host, mode: mode) }
                state.launching.append(launch)
                return .launched(launch)
            }
            switch choice {
            case .closed:
                return .failure(.spawn(path: host.built.executable, errno: ECANCELED))
            case .process(let process):
                return .success(process)
            case .wait:
                guard await waitForTurn() else {
                    return .failure(.spawn(path: host.built.executable, errno: ECANCELED))
                }
            case .launched(let launch):
                return await adopt(launch, host: host)
            }
        }
    }

    /// The process `launch` starts, counted for this notification.
    private func adopt(_ launch: Launch, host: ExtensionProcessHost) async -> Result<
        ExtensionProcess, CustomExtensionEnd.StartProblem
    > {
        let launched = await launch.value
        let registered = state.withLock { state -> Bool in
            state.launching.removeAll { $0 == launch }
            guard case .success(let process) = launched, !state.closed else { return false }
            let key = ObjectIdentifier(process)
            state.entries[key, default: Entry(process: process)].users += 1
            state.entries[key]!.awaitingHandler += 1
            return true
        }
        guard case .success(let process) = launched else {
            wakeWaiters()
            return launched
        }
        guard registered else {
            await process.stop()
            return .failure(.spawn(path: host.built.executable, errno: ECANCELED))
        }
        // Those waiting for the launch may now share the process (`concurrent`).
        wakeWaiters()
        return .success(process)
    }

    /// The notification's first content handler call, or its end: the next one may have its turn.
    private func handlerCalled(_ process: ExtensionProcess, once: Once) {
        guard once.first() else { return }
        state.withLock { state in
            state.entries[ObjectIdentifier(process)]?.awaitingHandler -= 1
        }
        wakeWaiters()
    }

    /// A notification is done with `process`: an ended process leaves the pool (`each` ends its own at once), an
    /// idle one is ended after ``idleTimeout``.
    private func release(_ process: ExtensionProcess) async {
        let key = ObjectIdentifier(process)
        let stopNow = state.withLock { state -> Bool in
            guard var entry = state.entries[key] else { return false }
            entry.users -= 1
            if mode == .each || process.hasEnded {
                state.entries[key] = entry.users <= 0 ? nil : entry
                return entry.users <= 0
            }
            if entry.users == 0 {
                entry.idleTimer = Task { [idleTimeout] in
                    guard (try? await Task.sleep(for: idleTimeout)) != nil else { return }
                    await self.endIfIdle(process)
                }
            }
            state.entries[key] = entry
            return false
        }
        wakeWaiters()
        if stopNow { await process.stop() }
    }

    private func endIfIdle(_ process: ExtensionProcess) async {
        let key = ObjectIdentifier(process)
        let idle = state.withLock { state -> Bool in
            guard let entry = state.entries[key], entry.users == 0 else { return false }
            state.entries[key] = nil
            return true
        }
        if idle { await process.stop() }
    }

    /// Waits until a process may have a turn free; false when the waiting task was cancelled or the pool closed.
    private func waitForTurn() async -> Bool {
        let key = UUID()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let answer = state.withLock { state -> Bool? in
                    if state.closed || Task.isCancelled { return false }
                    state.waiters[key] = continuation
                    return nil
                }
                if let answer { continuation.resume(returning: answer) }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: key) }?.resume(returning: false)
        }
    }

    /// Lets every waiting notification look again (a turn came free, a process ended).
    private func wakeWaiters() {
        let waiters = state.withLock { state -> [CheckedContinuation<Bool, Never>] in
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume(returning: !state.withLock { $0.closed }) }
    }

    /// Ends every process and waits for each; no process starts after.
    func stopAll() async {
        let (processes, waiters) = state.withLock { state -> ([ExtensionProcess], [CheckedContinuation<Bool, Never>]) in
            state.closed = true
            let all = state.entries.values.map(\.process)
            for entry in state.entries.values { entry.idleTimer?.cancel() }
            state.entries = [:]
            defer { state.waiters = [:] }
            return (all, Array(state.waiters.values))
        }
        for waiter in waiters { waiter.resume(returning: false) }
        for process in processes { await process.stop() }
    }
}

/// True the first time only.
private final class Once: Sendable {
    private let done = Mutex(false)

    func first() -> Bool {
        done.withLock { done in
            defer { done = true }
            return !done
        }
    }
}
