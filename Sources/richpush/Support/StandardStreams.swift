import Foundation

/// Writing to the standard streams, and whether they are terminals.
enum StandardStreams {
    static func error(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }

    static func output(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    static var errorIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }
}
