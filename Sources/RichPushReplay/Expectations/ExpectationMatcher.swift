public import RichPushCore

/// One field of a result that differs from its expectation.
public struct Mismatch: Sendable, Equatable, CustomStringConvertible {
    /// Dotted path of the field, e.g. `fallback.reason` or `timeline[2].event`.
    public var field: String
    public var expected: JSONValue
    /// Nil when the result has no such field.
    public var actual: JSONValue?

    public var description: String {
        "\(field): expected \(JSONWriter.string(expected)), got \(actual.map { JSONWriter.string($0) } ?? "no such field")"
    }
}

/// Partial, recursive matching: objects match on the keys the expectation gives, everything else exactly.
///
/// One key is a shorthand: `"rejected": "BadDeviceToken"` (what `serve --record` writes for a refused push) holds
/// when the result was refused with that reason, `rejection.reason`.
public enum ExpectationMatcher {
    public static func mismatches(expected: JSONObject, actual: JSONValue) -> [Mismatch] {
        var found: [Mismatch] = []
        var expected = expected
        if let reason = expected["rejected"] {
            expected["rejected"] = nil
            let actualReason = actual["rejection"].flatMap { $0 == .null ? JSONValue.null : $0["reason"] }
            if actualReason != reason {
                found.append(Mismatch(field: "rejected", expected: reason, actual: actualReason))
            }
        }
        match(.object(expected), actual, path: "", into: &found)
        return found
    }

    private static func match(_ expected: JSONValue, _ actual: JSONValue?, path: String, into found: inout [Mismatch]) {
        switch (expected, actual) {
        case (.object(let want), .object(let have)?):
            for (key, value) in want.pairs {
                match(value, have[key], path: path.isEmpty ? key : "\(path).\(key)", into: &found)
            }
        case (.array(let want), .array(let have)?) where want.count == have.count:
            for (index, value) in want.enumerated() {
                match(value, have[index], path: "\(path)[\(index)]", into: &found)
            }
        default:
            if expected != actual {
                found.append(Mismatch(field: path, expected: expected, actual: actual))
            }
        }
    }
}
