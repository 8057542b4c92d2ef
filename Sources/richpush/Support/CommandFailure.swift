import UnixSignals

/// Why a command ends without success, and so the status the process exits with. Commands throw it up to
/// ``RichPush/main()``, the one place that prints its line and exits, by one rule for every subcommand (the
/// README's "Exit status" table):
///
/// | status | when |
/// | --- | --- |
/// | 0 | the job succeeded; a server stopped by SIGINT or SIGTERM after a graceful shutdown |
/// | 1 | a check failed (an expectation, a refused push, an image that would not show) |
/// | 2 | usage, I/O or start-up (a port in use included) |
/// | 128 + N | a job (replay, push) interrupted by signal N |
struct CommandFailure: Error, Equatable, CustomStringConvertible {
    enum Kind: Equatable {
        case checkFailed
        case usage
        /// Reading or writing a file or stream, or starting a server, failed.
        case io
        /// A signal (its number) ended a job before it finished.
        case interrupted(signal: Int32)
    }

    let kind: Kind
    /// The line for standard error, without the trailing newline; nil when everything was said already (a
    /// failed check's report, a reader that went away).
    let message: String?

    var status: Int32 {
        switch kind {
        case .checkFailed: 1
        case .usage, .io: 2
        case .interrupted(let signal): 128 + signal
        }
    }

    var description: String { message ?? "exit status \(status)" }

    /// A check failed; the report already said which.
    static let checkFailed = CommandFailure(kind: .checkFailed, message: nil)

    static func checkFailed(_ message: String) -> CommandFailure {
        CommandFailure(kind: .checkFailed, message: message)
    }

    static func usage(_ message: String) -> CommandFailure { CommandFailure(kind: .usage, message: message) }

    /// An I/O or start-up failure, said in `message` ("richpush serve: cannot listen on …").
    static func io(_ message: String) -> CommandFailure { CommandFailure(kind: .io, message: message) }

    /// Standard output went away (`| head -1`): nothing more to say, and nowhere to say it.
    static let outputClosed = CommandFailure(kind: .io, message: nil)

    static func interrupted(by signal: UnixSignal) -> CommandFailure {
        CommandFailure(kind: .interrupted(signal: signal.rawValue), message: nil)
    }
}
