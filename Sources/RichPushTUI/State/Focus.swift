/// The pane that up/down and Enter act on.
enum Focus: Equatable, Sendable {
    case library
    case notifications

    var other: Focus { self == .library ? .notifications : .library }
}
