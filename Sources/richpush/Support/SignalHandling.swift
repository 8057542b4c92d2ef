import Foundation
import UnixSignals

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// INT, TERM and HUP, the signals that ask richpush to stop (Ctrl-C, `kill`, a closed terminal), received as
/// values through swift-service-lifecycle's `UnixSignalsSequence` instead of ending the process on the spot.
///
/// Two ways to use it, once per process (a signal has a single handler):
/// - `await TerminationSignals.exitOnSignal()`: the first signal runs the registered ``TerminationCleanup``
///   actions and exits with 128 + the signal's number, the shell convention (130 Ctrl-C, 129 HUP, 143 TERM).
/// - `await TerminationSignals.handle { signal in … }`: each signal is handed to the closure, in order, on a
///   task of its own; the closure decides how to stop (and may call ``TerminationCleanup/exit(_:)``).
///
/// Both return once the handlers are installed, so a signal sent after they return is never lost. A signal the
/// process was started with ignored (`nohup` ignores HUP, a background job of a script ignores INT) stays ignored.
enum TerminationSignals {
    /// The signals handled: INT, TERM and HUP.
    static let handled: [UnixSignal] = [.sigint, .sigterm, .sighup]

    /// From now on, the first of INT, TERM or HUP runs the registered clean-ups and exits with 128 + its number.
    static func exitOnSignal() async {
        await handle { signal in TerminationCleanup.exit(128 + signal.rawValue) }
    }

    /// From now on, INT, TERM and HUP are handed to `handler`, one after another, for the rest of the process.
    static func handle(_ handler: @escaping @Sendable (UnixSignal) async -> Void) async {
        let trapped = handled.filter { !isIgnored($0.rawValue) }
        for trappedSignal in trapped {
            // The signal reaches the sequence's dispatch source instead of its default action (ending the process).
            signal(trappedSignal.rawValue, SIG_IGN)
        }
        let signals = await UnixSignalsSequence(trapping: trapped)
        // Unstructured on purpose: signals are process-wide and handled for as long as the process lives.
        Task.detached {
            for await signal in signals {
                await handler(signal)
            }
        }
    }

    /// Whether `number` is currently ignored (inherited from the parent, as `nohup` does).
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
}
