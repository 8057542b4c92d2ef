/// Why the notification center could not take over the terminal.
public struct TerminalError: Error, Equatable, Sendable, CustomStringConvertible {
    private enum Code: Equatable, Sendable {
        case notATerminal
        case unsupportedTerminal
    }

    private let code: Code

    /// Standard input or output is not a terminal (e.g. piped, or running in CI without tmux).
    public static let notATerminal = TerminalError(code: .notATerminal)
    /// curses does not know the terminal named by TERM.
    public static let unsupportedTerminal = TerminalError(code: .unsupportedTerminal)

    public var description: String {
        switch code {
        case .notATerminal:
            "the notification center needs an interactive terminal (standard input and output must be a TTY)"
        case .unsupportedTerminal:
            "curses cannot drive this terminal; check the TERM environment variable (e.g. TERM=xterm-256color)"
        }
    }
}
