/// What wakes the run loop.
enum AppEvent: Sendable {
    /// Keys are waiting on standard input.
    case input
    /// Standard input was closed (e.g. the terminal went away).
    case inputClosed
    /// SIGINT, SIGTERM or SIGHUP: leave as if the user had quit, so the terminal is restored and files removed.
    case terminated
    /// Time passed: progress countdowns and the banner move on, and a resize is noticed.
    case tick
    /// News from the work started for an effect (deliveries, the library).
    case action(Action)
}
