import RichPushCore
import RichPushLibrary

/// An array of result objects as the README's result contract describes them, ordered by file path; or, as
/// JSON lines, one compact object per line.
///
/// A file that could not be read (or is not a regular file) has no notification; it appears as
/// `{"file", "delivered": false, "error"}` so the array counts every payload the text report counts.
///
/// The array is written element by element: `element(_:position:)` for each item in path order, then
/// `closing(count:)`; together they are the same text as `render(_:)`.
public struct JSONReporter: Sendable {
    public init() {}

    public func render(_ report: ReplayReport) -> String {
        report.items.enumerated().map { element($0.element, position: $0.offset) }.joined()
            + closing(count: report.items.count)
    }

    /// The item as the array's element at `position` (0-based), with what goes before it: `[` or `,`.
    public func element(_ item: ReplayItem, position: Int) -> String {
        // One level deeper than a document of its own: two more spaces after every line break. JSON text
        // holds no raw line breaks inside strings, so every one is the writer's own.
        let object = JSONWriter.string(Self.object(item), pretty: true).replacing("\n", with: "\n  ")
        return (position == 0 ? "[" : ",") + "\n  " + object
    }

    /// What ends an array of `count` elements.
    public func closing(count: Int) -> String {
        count == 0 ? "[]\n" : "\n]\n"
    }

    /// The item as one line of JSON lines.
    public func line(_ item: ReplayItem) -> String {
        JSONWriter.string(Self.object(item)) + "\n"
    }

    static func object(_ item: ReplayItem) -> JSONValue {
        if let result = item.result { return result.jsonValue }
        return [
            "file": .string(item.file.path), "delivered": false, "error": .string(item.error ?? "cannot read the file"),
        ]
    }
}
