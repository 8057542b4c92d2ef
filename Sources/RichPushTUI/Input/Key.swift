/// A key press, as the terminal backend decodes it.
enum Key: Equatable, Sendable {
    case character(Character)
    case up, down, left, right
    case pageUp, pageDown, home, end
    case enter, escape, backspace, delete, tab, backTab
    /// Ctrl-C: the terminal is in raw mode, so it arrives as a key rather than a signal.
    case interrupt
    /// The terminal changed size.
    case resize
    case other
}
