/// The report formats of `richpush replay`.
public enum ReplayFormat: String, Sendable, CaseIterable {
    case text
    case json
    case junit
    case html

    /// Renders a report as the text of this format; `context` (when, which version, the settings) goes into the
    /// formats that show it.
    public func render(_ report: ReplayReport, context: ReportContext = ReportContext()) -> String {
        switch self {
        case .text: TextReporter().render(report)
        case .json: JSONReporter().render(report)
        case .junit: JUnitReporter().render(report)
        case .html: HTMLReporter(context: context).render(report)
        }
    }
}
