import RichPushCore

/// An array of result objects exactly as in DESIGN.md, ordered by file path.
///
/// Files that could not be read have no result object; they are reported on standard error.
public struct JSONReporter: Sendable {
    public init() {}

    public func render(_ report: ReplayReport) -> String {
        JSONWriter.string(.array(report.items.compactMap { $0.result?.jsonValue }), pretty: true) + "\n"
    }
}
