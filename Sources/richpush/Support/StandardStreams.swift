import Foundation
import Logging

/// Writing to the standard streams, and whether they are terminals.
enum StandardStreams {
    static func error(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }

    static func output(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    static var errorIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }

    /// A logger to standard error: warnings and errors, or every step when `verbose`.
    static func logger(label: String, verbose: Bool) -> Logger {
        var logger = Logger(label: label) { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = verbose ? .debug : .warning
        return logger
    }
}
