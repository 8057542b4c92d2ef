/// The state of the receiving app, which decides whether the service extension runs.
public enum AppState: String, Sendable, CaseIterable, Codable {
    case foreground
    case background
    case closed

    /// The next state in the order foreground → background → closed → foreground.
    public var next: AppState {
        switch self {
        case .foreground: .background
        case .background: .closed
        case .closed: .foreground
        }
    }
}
