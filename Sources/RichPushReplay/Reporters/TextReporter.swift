public import RichPushCore
import RichPushLibrary

/// One line a person can scan per notification, then the summary.
public struct TextReporter: Sendable {
    public init() {}

    public func render(_ report: ReplayReport) -> String {
        let width = min(56, report.items.map { $0.file.path.count }.max() ?? 0)
        var lines: [String] = []
        for item in report.items {
            lines.append(line(for: item, pathWidth: width))
            if case .failed(let problems) = item.verdict, item.error == nil {
                lines += problems.map { "        " + TextSanitizer.singleLine($0, limit: 200) }
            }
            if let receipt = item.result?.receipt {
                lines.append("        receipt: " + TextSanitizer.singleLine(receipt.summary, limit: 200))
            }
            if let hint = item.result?.hint {
                lines.append("        hint: " + TextSanitizer.singleLine(hint, limit: 200))
            }
        }
        lines.append("")
        let seconds = (report.elapsed * 10).rounded() / 10
        lines.append(
            "Replayed \(report.items.count) payload\(report.items.count == 1 ? "" : "s") in \(seconds) s"
                + (report.unchecked > 0 ? " (\(report.unchecked) without expectations)" : ""))
        lines.append(report.summaryLine)
        return lines.joined(separator: "\n") + "\n"
    }

    func line(for item: ReplayItem, pathWidth: Int) -> String {
        let status: String
        switch item.verdict {
        case .unchecked: status = "    "
        case .passed: status = "PASS"
        case .failed: status = item.error == nil ? "FAIL" : "ERR "
        }
        let path = TextSanitizer.singleLine(item.file.path, limit: 200)
        let paddedPath = path.count < pathWidth ? path + String(repeating: " ", count: pathWidth - path.count) : path
        guard let result = item.result else {
            return
                "\(status)  \(pad("", 10))  \(pad("", 6))  \(paddedPath)  \(TextSanitizer.singleLine(item.error ?? "", limit: 120))"
        }
        return "\(status)  \(pad(result.appState.rawValue, 10))  \(pad(result.style.rawValue, 6))  \(paddedPath)  "
            + Self.summary(of: result)
    }

    /// `"Title" png 640x480 47.1 KB` or `"Title" plain: timeout (no complete image within 5 s)`.
    public static func summary(of result: DeliveryResult) -> String {
        if let rejection = result.rejection {
            return "rejected: \(rejection.reason.rawValue) (\(TextSanitizer.singleLine(rejection.detail, limit: 80)))"
        }
        let text = result.content.title.isEmpty ? result.content.body : result.content.title
        let title = text.isEmpty ? "(no text)" : "\"\(TextSanitizer.singleLine(text, limit: 40))\""
        if let attachment = result.attachment {
            return "\(title) \(attachment.summary)"
        }
        if let fallback = result.fallback {
            return "\(title) \(result.style == .silent ? "silent" : "plain"): \(fallback.reason.rawValue) "
                + "(\(TextSanitizer.singleLine(fallback.detail, limit: 80)))"
        }
        return result.style == .silent ? "(nothing shown)" : "\(title) plain text"
    }

    private func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }
}
