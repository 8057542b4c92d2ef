import RichPushCore
import RichPushLibrary

/// An array of result objects as the README's result contract describes them, ordered by file path.
///
/// A file that could not be read (or is not a regular file) has no notification; it appears as
/// `{"file", "delivered": false, "error"}` so the array counts every payload the text report counts.
public struct JSONReporter: Sendable {
    public init() {}

    public func render(_ report: ReplayReport) -> String {
        JSONWriter.string(.array(report.items.map(Self.object)), pretty: true) + "\n"
    }

    static func object(_ item: ReplayItem) -> JSONValue {
        if let result = item.result { return result.jsonValue }
        return [
            "file": .string(item.file.path), "delivered": false, "error": .string(item.error ?? "cannot read the file"),
        ]
    }
}
