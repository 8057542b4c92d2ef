import CFileInfo
import Foundation
import Logging
import RichPushFiles
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writing to the standard streams, and whether they are terminals.
///
/// Every write goes through ``FileDescriptorWriter``, which never traps. Standard output that cannot be written
/// throws the ``CommandFailure`` that ends the command with status 2: silently when the reader went away (EPIPE,
/// as in `richpush replay payloads | head -1`), else with one line on standard error. Standard error that cannot
/// be written is given up on quietly: there is nowhere left to say so.
enum StandardStreams {
    /// One writer at a time on each stream, so lines from concurrent tasks do not interleave. Separate, so that
    /// a clean-up can still clear the progress line while standard output is blocked on a slow reader.
    private static let outputLock = Mutex(())
    private static let errorLock = Mutex(())

    /// Call first thing in `main`: a reader that goes away then shows up as EPIPE from `write`, not as a signal.
    static func ignoreBrokenPipes() {
        signal(SIGPIPE, SIG_IGN)
    }

    static func error(_ text: String) {
        errorLock.withLock { _ in _ = FileDescriptorWriter.writeAll(Array(text.utf8), to: STDERR_FILENO) }
    }

    /// Writes `text` to standard output, or throws the failure that ends the command: silent when the reader went
    /// away (EPIPE), else one line naming the problem.
    static func output(_ text: String) throws(CommandFailure) {
        let failure = outputLock.withLock { _ in FileDescriptorWriter.writeAll(Array(text.utf8), to: STDOUT_FILENO) }
        guard let failure else { return }
        if failure == EPIPE { throw .outputClosed }
        throw .io("richpush: cannot write to standard output: \(FileDescriptorWriter.describe(failure))")
    }

    static var errorIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }

    /// Whether standard output and standard error are the same terminal, so a line on both is seen twice.
    static var outputAndErrorShareATerminal: Bool {
        guard isatty(STDOUT_FILENO) == 1, isatty(STDERR_FILENO) == 1 else { return false }
        // ttyname's buffer is reused by the next call: copy each name at once.
        guard let output = ttyname(STDOUT_FILENO).map({ String(cString: $0) }),
            let error = ttyname(STDERR_FILENO).map({ String(cString: $0) })
        else { return false }
        return output == error
    }

    /// A logger to standard error: warnings and errors, or every step when `verbose`.
    static func logger(label: String, verbose: Bool) -> Logger {
        var logger = Logger(label: label) { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = verbose ? .debug : .warning
        return logger
    }
}
