import Logging
import RichPushNetwork
import ServiceLifecycle
import Synchronization
import UnixSignals

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How every command runs: the long-lived parts it starts (the attachment store, the fixture CDN, the HTTP clients,
/// the extension's host, a push server with its delivery queue, a temporary CA file) are services in one
/// `ServiceGroup` with the command's job (a replay, the notification center's loop), and the lifecycle owns INT,
/// TERM and HUP.
///
/// - `start` starts the parts in order, handing each to ``Parts/add(_:)``, and returns the job. If it fails (or a
///   signal interrupts it), the parts started so far are stopped all the same.
/// - The job then runs beside the parts. When it ends, each part is shut down gracefully, in the reverse order of
///   its start; a part cleans up after itself in its own shutdown (a service's `run` waits for the graceful
///   shutdown, then stops).
/// - The first signal shuts the group down gracefully: the job is cancelled, then the parts stop. A second one
///   cancels what is still stopping. The outcome says which signal ended the command, for the exit status.
///
/// A signal the process was started with ignored (`nohup`, `trap '' HUP`) stays ignored.
enum CommandLifecycle {
    /// The signals that ask a command to stop: Ctrl-C, `kill`, a closed terminal.
    static let stopSignals: [UnixSignal] = [.sigint, .sigterm, .sighup]

    /// The parts a command started, in order.
    final class Parts: Sendable {
        private let list = Mutex<[any Service]>([])

        /// Adds a part that has started; it is shut down when the command ends.
        @discardableResult
        func add<Part: Service>(_ part: Part) -> Part {
            list.withLock { $0.append(part) }
            return part
        }

        var services: [any Service] { list.withLock { $0 } }
    }

    enum Outcome<Value: Sendable>: Sendable {
        case finished(Value)
        /// A signal stopped the command before its job finished.
        case interrupted(signal: UnixSignal)
    }

    /// Starts the parts, runs the job, stops everything; see the type's description. Throws what `start` or the
    /// job threw (but not the cancellation a signal caused).
    static func run<Value: Sendable>(
        logger: Logger,
        start: @escaping @Sendable (Parts) async throws -> @Sendable () async throws -> Value
    ) async throws -> Outcome<Value> {
        let signals = Signals()
        let trapped = stopSignals.filter { !isIgnored($0.rawValue) }
        let sequence = await UnixSignalsSequence(trapping: trapped)
        let listener = Task {
            for await received in sequence { signals.receive(received) }
        }
        defer { listener.cancel() }

        let parts = Parts()
        let starting = Task { try await start(parts) }
        signals.whenReceived { _ in starting.cancel() }
        let job: Result<@Sendable () async throws -> Value, any Error> = await starting.result

        let outcome = Mutex<Result<Value, any Error>?>(nil)
        let jobService = Job {
            guard case .success(let job) = job else { return }
            do {
                let value = try await cancelWhenGracefulShutdown { try await job() }
                outcome.withLock { $0 = .success(value) }
            } catch {
                outcome.withLock { $0 = .failure(error) }
            }
        }
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: parts.services.map { ServiceGroupConfiguration.ServiceConfiguration(service: $0) }
                    + [
                        .init(
                            service: jobService, successTerminationBehavior: .gracefullyShutdownGroup,
                            failureTerminationBehavior: .gracefullyShutdownGroup)
                    ],
                gracefulShutdownSignals: [], cancellationSignals: [], logger: logger))
        let running = Task { try await group.run() }
        signals.whenReceived { count in
            if count == 1 {
                Task { await group.triggerGracefulShutdown() }
            } else {
                running.cancel()
            }
        }
        // A part that fails stops the group; its error counts only when nothing else went wrong first.
        let groupResult = await running.result

        if let signal = signals.first { return .interrupted(signal: signal) }
        if case .failure(let error) = job { throw error }
        switch outcome.withLock({ $0 }) {
        case .success(let value)?: return .finished(value)
        case .failure(let error)?: throw error
        case nil:
            try groupResult.get()
            throw CancellationError()
        }
    }

    /// Whether `number` is ignored now (inherited from the parent, as `nohup` does).
    private static func isIgnored(_ number: Int32) -> Bool {
        var current = sigaction()
        guard sigaction(number, nil, &current) == 0 else { return false }
        #if canImport(Darwin)
            let handler = current.__sigaction_u.__sa_handler
        #else
            let handler = current.__sigaction_handler.sa_handler
        #endif
        return unsafeBitCast(handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
    }

    /// The stop signals received so far, and who is told of the next one (the start, then the group).
    private final class Signals: Sendable {
        private struct State {
            var received: [UnixSignal] = []
            var handler: (@Sendable (_ count: Int) -> Void)?
        }

        private let state = Mutex(State())

        var first: UnixSignal? { state.withLock { $0.received.first } }

        func receive(_ signal: UnixSignal) {
            let (handler, count) = state.withLock { state in
                state.received.append(signal)
                return (state.handler, state.received.count)
            }
            handler?(count)
        }

        /// From now on, each signal is handed to `handler` with how many arrived; one that arrived already is
        /// handed over at once.
        func whenReceived(_ handler: @escaping @Sendable (_ count: Int) -> Void) {
            let count = state.withLock { state in
                state.handler = handler
                return state.received.count
            }
            if count > 0 { handler(count) }
        }
    }

    /// The command's job as the group's last service, so it is the first to stop.
    private struct Job: Service {
        let body: @Sendable () async -> Void
        init(_ body: @escaping @Sendable () async -> Void) { self.body = body }
        func run() async { await body() }
    }
}

/// A part that is one thing to do when the command ends: remove a temporary file, clear the progress line, end a
/// feed. The long-lived parts (the attachment store, the fixture CDN, the HTTP clients, the extension's host, the
/// push server) stop the same way, as ``StoppedAtShutdown`` types of their own.
struct ShutdownAction: StoppedAtShutdown {
    let action: @Sendable () async -> Void

    init(_ action: @escaping @Sendable () async -> Void) { self.action = action }

    func shutdown() async { await action() }
}
