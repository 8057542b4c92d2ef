/// What the run loop needs from a terminal: its size, the keys pressed, and a way to show a frame.
/// ``CursesTerminal`` is the real one; tests use an in-memory one.
protocol TerminalBackend: AnyObject {
    var size: TerminalSize { get }
    /// The next key already typed, without waiting; nil when there is none.
    func readKey() -> Key?
    /// Shows the frame, replacing the previous one.
    func draw(_ grid: CellGrid)
}
