/// The report formats of `richpush replay`.
public enum ReplayFormat: String, Sendable, CaseIterable {
    case text
    case json
    case junit

    /// Renders a report as the text of this format.
    public func render(_ report: ReplayReport) -> String {
        switch self {
        case .text: TextReporter().render(report)
        case .json: JSONReporter().render(report)
        case .junit: JUnitReporter().render(report)
        }
    }
}
