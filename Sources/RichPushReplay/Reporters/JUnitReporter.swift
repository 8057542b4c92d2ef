import RichPushCore
import RichPushLibrary

/// JUnit XML: one test case per payload with expectations, failures carrying the mismatches.
public struct JUnitReporter: Sendable {
    public init() {}

    public func render(_ report: ReplayReport) -> String {
        let cases = report.items.filter { $0.verdict != .unchecked }
        var xml = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        xml += #"<testsuites name="richpush replay" tests="\#(cases.count)" failures="\#(report.failed)">"# + "\n"
        xml +=
            #"  <testsuite name="richpush replay" tests="\#(cases.count)" failures="\#(report.failed)" errors="0" time="\#(seconds(report.elapsed))">"#
            + "\n"
        for item in cases {
            let directory = item.file.path.split(separator: "/").dropLast().joined(separator: ".")
            let name = item.file.path.split(separator: "/").last.map(String.init) ?? item.file.path
            let time = seconds(item.result?.elapsed ?? 0)
            xml +=
                #"    <testcase classname="\#(escape(directory.isEmpty ? "payloads" : directory))" name="\#(escape(name))" file="\#(escape(item.file.path))" time="\#(time)""#
            if case .failed(let problems) = item.verdict {
                xml += ">\n"
                let message = problems.first ?? "failed"
                xml += #"      <failure message="\#(escape(message))">"#
                xml += escape(problems.joined(separator: "\n"))
                xml += "</failure>\n"
                if let result = item.result {
                    xml += "      <system-out>\(escape(TextReporter.summary(of: result)))</system-out>\n"
                }
                xml += "    </testcase>\n"
            } else {
                xml += "/>\n"
            }
        }
        xml += "  </testsuite>\n</testsuites>\n"
        return xml
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
