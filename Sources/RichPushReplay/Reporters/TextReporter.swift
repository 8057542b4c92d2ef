public import RichPushCore
import RichPushLibrary

/// One line a person can scan per notification, then the summary.
///
/// Written as results arrive: the path column's width depends only on the paths, known before the replay, and
/// the closing lines only on the counts.
public struct TextReporter: Sendable {
    public init() {}

    public func render(_ report: ReplayReport) -> String {
        let width = Self.pathWidth(report.items.map(\.file.path))
        return report.items.map { lines(for: $0, pathWidth: width) }.joined() + footer(report.summary)
    }

    /// The width of the path column for these paths.
    public static func pathWidth(_ paths: some Sequence<String>) -> Int {
        min(56, paths.reduce(0) { max($0, $1.count) })
    }

    /// The item's line and the lines under it, each ending in a newline.
    public func lines(for item: ReplayItem, pathWidth: Int) -> String {
        var lines = [line(for: item, pathWidth: pathWidth)]
        if case .failed(let problems) = item.verdict, item.error == nil {
            lines += problems.map { "        " + TextSanitizer.singleLine($0, limit: 200) }
        }
        if let receipt = item.result?.receipt {
            lines.append("        receipt: " + TextSanitizer.singleLine(receipt.summary, limit: 200))
        }
        if let hint = item.result?.hint {
            lines.append("        hint: " + TextSanitizer.singleLine(hint, limit: 200))
        }
        if let calls = item.result?.contentHandlerCalls, calls > 1 {
            lines.append("        extension: content handler called \(calls) times; iOS used the first")
        }
        if let sender = item.result?.communication {
            let avatar =
                sender.avatar.map { "avatar \($0.format.rawValue) \($0.width)x\($0.height)" }
                ?? "no avatar" + (sender.avatarProblem.map { ": \($0)" } ?? "")
            let group = sender.groupName.map { " in \($0)" } ?? ""
            lines.append(
                "        from: " + TextSanitizer.singleLine("\(sender.senderName)\(group), \(avatar)", limit: 200))
        }
        for line in item.result?.timeline.filter({ $0.kind == .sdkWouldSend || $0.kind == .frameworkNote }) ?? [] {
            let label = line.kind == .sdkWouldSend ? "would send" : "note"
            lines.append("        \(label): " + TextSanitizer.singleLine(line.detail, limit: 200))
        }
        // What the extension changed in the notification center: the removals and the badge a person notices.
        for line in item.result?.timeline ?? [] where line.kind == .notificationCenter {
            guard
                line.detail.hasPrefix("remove") || line.detail.hasPrefix("setBadgeCount")
                    || line.detail.hasPrefix("local")
            else { continue }
            lines.append("        notification center: " + TextSanitizer.singleLine(line.detail, limit: 200))
        }
        return lines.map { $0 + "\n" }.joined()
    }

    /// A blank line, how many payloads in how long, and the summary line.
    public func footer(_ summary: ReplaySummary) -> String {
        let seconds = (summary.elapsed * 10).rounded() / 10
        return "\nReplayed \(summary.total) payload\(summary.total == 1 ? "" : "s") in \(seconds) s"
            + (summary.unchecked > 0 ? " (\(summary.unchecked) without expectations)" : "") + "\n"
            + summary.summaryLine + "\n"
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

    /// `"Title" png 640x480 47.1 KB`, `"Title" MP4 video h264/aac 2.0 s 64x48, poster at 1.0 s` or `"Title" plain:
    /// timeout (no complete image within 5 s)`.
    public static func summary(of result: DeliveryResult) -> String {
        shown(result) + (deliveryWord(result).map { " · \($0)" } ?? "")
    }

    /// How the phone kept it from the person, when it did: held by a Focus, waiting for the summary, quiet.
    static func deliveryWord(_ result: DeliveryResult) -> String? {
        switch result.presentation?.delivery?.kind {
        case .heldByFocus?: "held by Focus"
        case .scheduledSummary?: "waits for the Scheduled Summary"
        case .quiet?: "quiet"
        default: nil
        }
    }

    private static func shown(_ result: DeliveryResult) -> String {
        if let refusal = result.endpointRejection {
            return
                "rejected: \(refusal.status) \(refusal.reason) (\(TextSanitizer.singleLine(refusal.detail, limit: 80)))"
        }
        if let rejection = result.rejection {
            return "rejected: \(rejection.reason.rawValue) (\(TextSanitizer.singleLine(rejection.detail, limit: 80)))"
        }
        let text = result.content.title.isEmpty ? result.content.body : result.content.title
        let title = text.isEmpty ? "(no text)" : "\"\(TextSanitizer.singleLine(text, limit: 40))\""
        if let attachment = result.attachment {
            return "\(title) \(attachment.summary)"
        }
        if let media = result.media {
            return "\(title) \(media.summary)"
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
