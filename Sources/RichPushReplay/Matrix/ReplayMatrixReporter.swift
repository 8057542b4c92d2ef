import RichPushCore
import RichPushLibrary

/// The matrix as text (a table: a row per payload, a column per profile or mode), JSON, or JUnit XML (one test case
/// per payload and column).
public struct ReplayMatrixReporter: Sendable {
    public enum Format: String, Sendable, CaseIterable {
        case text, json, junit
    }

    public var format: Format

    public init(format: Format) {
        self.format = format
    }

    public func render(_ matrix: ReplayMatrix) -> String {
        switch format {
        case .text: text(matrix)
        case .json: JSONWriter.string(json(matrix), pretty: true) + "\n"
        case .junit: junit(matrix)
        }
    }

    /// `rich`; for a plain notification the reason its image is missing (`plain` when none was asked for); `silent`
    /// or `rejected` with the reason; `*` when the cell does not match its expectation.
    static func cellText(_ cell: ReplayMatrix.Cell) -> String {
        var text: String
        if case .device = cell.column.setting, let delivery = cell.result?.presentation?.delivery {
            text = DeviceMatrix.outcome(of: delivery)
            if cell.failed { text += " *" }
            return text
        }
        switch (cell.outcome, cell.reason) {
        case ("plain", let reason?): text = reason
        case ("rich", _), (_, nil): text = cell.outcome
        case (let outcome, let reason?): text = "\(outcome): \(reason)"
        }
        if cell.failed { text += " *" }
        return text
    }

    // MARK: - Text

    func text(_ matrix: ReplayMatrix) -> String {
        let paths = matrix.rows.map { TextSanitizer.singleLine($0.file.path, limit: 60) }
        let header = ["payload"] + matrix.columns.map(\.name)
        let body = zip(paths, matrix.rows).map { path, row in [path] + row.cells.map(Self.cellText) }
        let widths = header.indices.map { column in
            ([header] + body).map { $0[column].count }.max() ?? 0
        }
        func line(_ fields: [String]) -> String {
            zip(fields, widths).map { field, width in
                field + String(repeating: " ", count: max(0, width - field.count))
            }.joined(separator: "  ").trimmingTrailingSpaces() + "\n"
        }
        let noun = matrix.axis.noun
        var out = "\(matrix.axis.title): \(count(matrix.rows.count, "payload")) x \(count(matrix.columns.count, noun))"
        out +=
            matrix.axis == .device
            ? " (how the person gets it: banner or lock screen, + sound; quiet; summary; held by Focus)\n\n"
            : " (rich; plain; or the reason the image is missing)\n\n"
        out += line(header)
        for fields in body { out += line(fields) }
        let failures = matrix.rows.flatMap { row in row.cells.filter(\.failed).map { (row.file.path, $0) } }
        if !failures.isEmpty {
            out += "\n* does not match \(matrix.axis.checkedAgainst):\n"
            for (path, cell) in failures {
                out += "FAIL  \(TextSanitizer.singleLine(path, limit: 200))  \(cell.column.name)\n"
                if case .failed(let problems) = cell.verdict {
                    for problem in problems { out += "        \(TextSanitizer.singleLine(problem, limit: 200))\n" }
                }
            }
        }
        let summary = matrix.summary
        let seconds = (matrix.elapsed * 10).rounded() / 10
        out += "\nReplayed \(count(matrix.rows.count, "payload")) through \(count(matrix.columns.count, noun))"
        out += " (\(count(summary.total, "delivery", "deliveries"))) in \(seconds) s"
        out += summary.unchecked > 0 ? " (\(summary.unchecked) without expectations)\n" : "\n"
        out += summary.summaryLine + "\n"
        return out
    }

    private func count(_ number: Int, _ singular: String, _ plural: String? = nil) -> String {
        "\(number) \(number == 1 ? singular : plural ?? singular + "s")"
    }

    // MARK: - JSON

    func json(_ matrix: ReplayMatrix) -> JSONValue {
        let summary = matrix.summary
        return [
            "\(matrix.axis.noun)s": .array(matrix.columns.map { .string($0.name) }),
            "payloads": .array(
                matrix.rows.map { row in
                    var results = JSONObject()
                    for cell in row.cells { results[cell.column.name] = Self.json(cell) }
                    return ["file": .string(row.file.path), "results": .object(results)]
                }),
            "summary": [
                "total": .number(Double(summary.total)), "passed": .number(Double(summary.passed)),
                "failed": .number(Double(summary.failed)), "unchecked": .number(Double(summary.unchecked)),
                "elapsed": .number((matrix.elapsed * 1000).rounded() / 1000),
            ],
        ]
    }

    static func json(_ cell: ReplayMatrix.Cell) -> JSONValue {
        let detail = cell.result?.fallback?.detail ?? cell.result?.rejection?.detail ?? cell.error
        let verdict: String
        var problems: [JSONValue] = []
        switch cell.verdict {
        case .unchecked: verdict = "unchecked"
        case .passed: verdict = "passed"
        case .failed(let list):
            verdict = "failed"
            problems = list.map { .string($0) }
        }
        return [
            "outcome": .string(cell.outcome), "reason": cell.reason.map { .string($0) } ?? .null,
            "detail": detail.map { .string($0) } ?? .null,
            "attachmentFile": (cell.result?.attachment?.file).map { .string($0) } ?? .null,
            "hint": (cell.result?.hint).map { .string($0) } ?? .null,
            "delivery": (cell.result?.presentation?.delivery).map(\.jsonValue) ?? .null,
            "verdict": .string(verdict), "problems": .array(problems),
        ]
    }

    // MARK: - JUnit

    func junit(_ matrix: ReplayMatrix) -> String {
        let escape = JUnitReporter().escape
        let summary = matrix.summary
        let tests = summary.passed + summary.failed
        var xml = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        xml +=
            #"<testsuites name="richpush \#(matrix.axis.title.lowercased())" tests="\#(tests)" failures="\#(summary.failed)">"#
            + "\n"
        for column in matrix.columns {
            let cells = matrix.rows.compactMap { row in
                row.cells.first { $0.column == column }.map { (row.file.path, $0) }
            }
            let checked = cells.filter { $0.1.verdict != .unchecked }
            let failures = checked.filter { $0.1.failed }.count
            xml +=
                #"  <testsuite name="\#(escape(column.name))" tests="\#(checked.count)" failures="\#(failures)" errors="0">"#
                + "\n"
            for (path, cell) in checked {
                let seconds = String(((cell.result?.elapsed ?? 0) * 1000).rounded() / 1000)
                xml +=
                    #"    <testcase classname="\#(escape(column.name))" name="\#(escape(path))" time="\#(seconds)""#
                if case .failed(let problems) = cell.verdict {
                    xml += ">\n"
                    xml += #"      <failure message="\#(escape(problems.first ?? "failed"))">"#
                    xml += escape(problems.joined(separator: "\n")) + "</failure>\n"
                    xml += "      <system-out>\(escape(Self.cellText(cell)))</system-out>\n"
                    xml += "    </testcase>\n"
                } else {
                    xml += "/>\n"
                }
            }
            xml += "  </testsuite>\n"
        }
        return xml + "</testsuites>\n"
    }
}

extension String {
    fileprivate func trimmingTrailingSpaces() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
