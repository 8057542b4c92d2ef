import Dispatch
import Foundation

/// While alive, runs a clean-up (removing downloaded attachments) when the process is interrupted or
/// terminated, then exits with the conventional status 128 + signal number.
final class TerminationCleanup {
    private var sources: [any DispatchSourceSignal] = []

    init(_ cleanup: @escaping @Sendable () -> Void) {
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                cleanup()
                Foundation.exit(128 + number)
            }
            source.resume()
            sources.append(source)
        }
    }

    deinit {
        for source in sources { source.cancel() }
    }
}
