import RichPushCore
import RichPushLibrary

/// JUnit XML: one test case per payload with expectations, failures carrying the mismatches.
///
/// The opening elements carry the counts, so a streamed report writes the test cases first (to a spool) and
/// puts `header(_:)` before them once the replay is over; `render(_:)` is the same text in one piece.
public struct JUnitReporter: Sendable {
    public init() {}

    public func render(_ report: ReplayReport) -> String {
        header(report.summary) + report.items.map(testCase).joined() + footer
    }

    /// The XML declaration and the opening elements, with the counts and the time.
    public func header(_ summary: ReplaySummary) -> String {
        let tests = summary.passed + summary.failed
        return #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
            + #"<testsuites name="richpush replay" tests="\#(tests)" failures="\#(summary.failed)">"# + "\n"
            + #"  <testsuite name="richpush replay" tests="\#(tests)" failures="\#(summary.failed)" errors="0" time="\#(seconds(summary.elapsed))">"#
            + "\n"
    }

    /// The closing elements.
    public var footer: String { "  </testsuite>\n</testsuites>\n" }

    /// The item's test case; nothing for a payload without expectations.
    public func testCase(_ item: ReplayItem) -> String {
        if item.verdict == .unchecked { return "" }
        let directory = item.file.path.split(separator: "/").dropLast().joined(separator: ".")
        let name = item.file.path.split(separator: "/").last.map(String.init) ?? item.file.path
        let time = seconds(item.result?.elapsed ?? 0)
        var xml =
            #"    <testcase classname="\#(escape(directory.isEmpty ? "payloads" : directory))" name="\#(escape(name))" file="\#(escape(item.file.path))" time="\#(time)""#
        if case .failed(let problems) = item.verdict {
            xml += ">\n"
            let message = problems.first ?? "failed"
            xml += #"      <failure message="\#(escape(message))">"#
            xml += escape(problems.joined(separator: "\n"))
            xml += "</failure>\n"
            if let result = item.result {
                xml += "      <system-out>\(escape(Self.output(of: result)))</system-out>\n"
            }
            xml += "    </testcase>\n"
        } else {
            xml += "/>\n"
        }
        return xml
    }

    /// A failed case's output: the result's summary and, for a team's extension, what it did and printed.
    static func output(of result: DeliveryResult) -> String {
        var text = TextReporter.summary(of: result)
        if let identity = result.extensionIdentity, identity.kind == .custom {
            let calls = result.contentHandlerCalls ?? 0
            text +=
                "\nYour extension \(identity.principalClass ?? "") from \(identity.source ?? ""): content handler called \(calls) time\(calls == 1 ? "" : "s")"
            if !result.extensionLog.isEmpty {
                text += "\nIts output (last lines):\n" + result.extensionLog.suffix(20).joined(separator: "\n")
            }
        }
        return text
    }

    private func seconds(_ value: Double) -> String {
        String((value * 1000).rounded() / 1000)
    }

    /// XML-escapes text and drops the control characters XML 1.0 cannot carry.
    func escape(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\n", "\t": out.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || (0xFFFE...0xFFFF).contains(scalar.value) {
                    out += "\u{FFFD}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }
}
