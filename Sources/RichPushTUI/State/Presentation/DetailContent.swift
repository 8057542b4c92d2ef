import RichPushCore

/// The expanded notification as lines: full text, delivery facts, attachment metadata, the reason
/// explained, the hint and the extension's timeline. Pure, so the detail view and the scroll limits agree.
struct DetailContent {
    var entry: NotificationEntry
    /// The limits quoted when the notification's delivery has not reported its own.
    var configuredLimits: EffectiveLimits
    /// Local time of day (seconds after midnight) when the UI started.
    var timeOfDay: Double
    /// Seconds since the UI started, for live progress.
    var now: Double = 0
    /// Whether the lines start with the notification's text (off when the phone card above shows it).
    var showsText = true

    private static let labelWidth = 12
    /// The extension's output lines shown (its last ones); the JSON result has up to 200.
    static let logLines = 8

    func lines(width: Int) -> [StyledLine] {
        guard width > 0 else { return [] }
        var lines: [StyledLine] = []
        let content = entry.content
        let title = TextSanitizer.singleLine(content.title)
        let subtitle = TextSanitizer.singleLine(content.subtitle)

        if showsText, let sender = entry.result?.communication {
            // A communication notification: iOS shows who sent it, with their avatar, above the text.
            var from = TextSanitizer.singleLine(sender.senderName, limit: 80)
            if let group = sender.groupName { from += " in " + TextSanitizer.singleLine(group, limit: 60) }
            lines += wrapped(from, width: width, style: .accent)
        }
        if showsText && title.isEmpty && subtitle.isEmpty && content.body.isEmpty {
            lines += wrapped("(no alert text)", width: width, style: .muted)
        }
        if showsText && !title.isEmpty { lines += wrapped(title, width: width, style: .bold) }
        if showsText && !subtitle.isEmpty { lines += wrapped(subtitle, width: width, style: .plain) }
        if showsText && !content.body.isEmpty {
            for line in TextSanitizer.lines(content.body) {
                lines += wrapped(line, width: width, style: .plain)
            }
        }

        lines.append(StyledLine(""))
        lines.append(section("Delivery"))
        lines += field("Shown as", shownAs, width: width)
        lines += field("App state", entry.appState.rawValue, width: width)
        lines += field("Payload", entry.file, width: width)
        if let rejection = entry.endpointRejection {
            lines += field("Refused", TextSanitizer.singleLine(rejection), width: width)
        }
        var arrival = Format.timeOfDay(timeOfDay + entry.sentAt)
        if let result = entry.result { arrival += " · presented after \(Format.fixed(result.elapsed, 3)) s" }
        lines += field("Arrived", arrival, width: width)
        if let result = entry.result {
            if let source = result.source { lines += field("Source", source.rawValue, width: width) }
            if let pushID = result.pushID { lines += field("Push ID", pushID, width: width) }
            if let collapseID = result.collapseID { lines += field("Collapse ID", collapseID, width: width) }
            if let imageURL = result.imageURL { lines += field("Image URL", imageURL, width: width) }
        }
        if entry.isInFlight {
            lines += field(
                "Progress",
                NotificationSummary.progress(of: entry, now: now, configured: configuredLimits, withTotal: true),
                width: width)
        }

        if !entry.request.isEmpty {
            lines.append(StyledLine(""))
            lines.append(section("Request"))
            for detail in entry.request { lines += field(detail.label, detail.value, width: width) }
        }

        if let result = entry.result {
            let said = Self.attributes(of: result)
            if !said.isEmpty {
                lines.append(StyledLine(""))
                lines.append(section("Also in the payload"))
                for (label, value) in said { lines += field(label, value, width: width) }
            }
        }

        if let attachment = entry.result?.attachment {
            lines.append(StyledLine(""))
            lines.append(section("Attachment"))
            lines += field("URL", attachment.url, width: width)
            lines += field("MIME", attachment.mimeType, width: width)
            lines += field("Format", attachment.format.rawValue, width: width)
            lines += field("Dimensions", "\(attachment.width)x\(attachment.height)", width: width)
            lines += field("Frames", "\(attachment.frames)", width: width)
            lines += field(
                "Bytes", "\(Format.grouped(attachment.bytes)) (\(ByteCount.text(attachment.bytes)))", width: width)
            lines += field("SHA-256", "\(attachment.sha256.prefix(16))…", width: width)
            lines += field("Local file", attachment.file, width: width)
        }

        // How the phone's state let it through (held by Focus, in the summary, …), after the facts of what arrived.
        if let delivery = entry.delivery {
            lines.append(StyledLine(""))
            lines.append(section("Phone"))
            for (label, value) in PhoneText.fields(of: delivery, deliveredInSummary: entry.deliveredInSummary) {
                lines += field(label, value, width: width)
            }
        }

        if let receipt = entry.result?.receipt {
            lines.append(StyledLine(""))
            lines.append(section("Receipt"))
            lines += field("Sent to", receipt.url, width: width)
            lines += field("Body", "push_id=\(receipt.pushID)", width: width)
            let answer =
                switch (receipt.status, receipt.error) {
                case (let status?, nil): "HTTP \(status)"
                case (_, let error?): "failed: \(error)"
                case (nil, nil): "no answer"
                }
            lines += field("Answer", answer, width: width)
            lines += field(
                "Timing",
                receipt.completedAfterContentHandler
                    ? "ended after the content handler: on a device it may be lost"
                    : "in time, before the content handler", width: width)
        }

        if let sender = entry.result?.communication {
            lines.append(StyledLine(""))
            lines.append(section("Sender"))
            lines += field("Name", sender.senderName, width: width)
            if let handle = sender.senderHandle { lines += field("Handle", handle, width: width) }
            if let group = sender.groupName { lines += field("Group", group, width: width) }
            if let conversation = sender.conversationID { lines += field("Conversation", conversation, width: width) }
            let avatar =
                if let image = sender.avatar {
                    "\(image.format.rawValue) \(image.width)x\(image.height), \(ByteCount.text(image.bytes))"
                } else {
                    sender.avatarProblem ?? "none"
                }
            lines += field("Avatar", avatar, width: width)
        }

        if let result = entry.result, let identity = result.extensionIdentity, identity.kind == .custom {
            lines.append(StyledLine(""))
            lines.append(section("Your extension"))
            lines += field("Class", identity.principalClass ?? "", width: width)
            lines += field("From", identity.source ?? "", width: width)
            let calls = result.contentHandlerCalls ?? 0
            lines += field(
                "Handler",
                calls == 1 ? "called once" : calls == 0 ? "never called" : "called \(calls) times; iOS used the first",
                width: width)
            if let process = result.extensionProcess {
                lines += field("Process", "\(process.summary), mode \(process.mode)", width: width)
            }
            if let crossTalk = result.crossTalk {
                lines += field("Cross-talk", TextSanitizer.singleLine(crossTalk.detail, limit: 300), width: width)
            }
            // Its last lines of output, each on one line of its own: a printed payload never moves the cursor.
            for line in result.extensionLog.suffix(Self.logLines) {
                lines += wrapped(TextSanitizer.singleLine(line, limit: 300), width: width, style: .muted, indent: 2)
            }
        }

        if let explanation {
            lines.append(StyledLine(""))
            lines.append(section(explanation.heading))
            lines += wrapped(explanation.sentence, width: width, style: .plain, indent: 2)
            lines += wrapped(explanation.code, width: width, style: .muted, indent: 2)
        }

        if let hint = entry.result?.hint {
            lines.append(StyledLine(""))
            lines.append(section("Hint"))
            lines += wrapped(TextSanitizer.singleLine(hint), width: width, style: .accent, indent: 2)
        }

        lines.append(StyledLine(""))
        lines.append(section("Timeline"))
        if entry.events.isEmpty {
            lines += wrapped("(nothing yet)", width: width, style: .muted, indent: 2)
        }
        let eventWidth = entry.events.map { $0.kind.rawValue.count }.max() ?? 0
        for event in entry.events {
            let at = Format.fixed(event.at, 3)
            let prefix =
                "  " + String(repeating: " ", count: max(0, 7 - at.count)) + at + " s  "
                + event.kind.rawValue + String(repeating: " ", count: eventWidth - event.kind.rawValue.count) + "  "
            let detail = TextSanitizer.singleLine(event.detail)
            let style: TextStyle =
                switch event.kind {
                case .downloadFailed, .attachmentRejected, .rejected, .timeWillExpire, .receiptFailed: .warning
                case .presented: .bold
                default: .plain
                }
            lines += hanging(prefix, detail, width: width, style: style)
        }
        return lines
    }

    /// What the payload said besides its text, as it said it: badge, sound, thread-id, …
    static func attributes(of result: DeliveryResult) -> [(label: String, value: String)] {
        var said: [(label: String, value: String)] = []
        if let badge = result.badge { said.append(("Badge", "\(badge)")) }
        if let sound = result.sound { said.append(("Sound", sound)) }
        if let threadID = result.threadID { said.append(("Thread ID", threadID)) }
        if let category = result.category { said.append(("Category", category)) }
        if let level = result.interruptionLevel { said.append(("Interruption", level)) }
        if let score = result.relevanceScore { said.append(("Relevance", Format.number(score))) }
        if let target = result.targetContentID { said.append(("Target ID", target)) }
        return said
    }

    private var shownAs: String {
        if entry.failure != nil { return "not delivered (the payload file could not be read)" }
        guard let result = entry.result else { return "in flight" }
        if !result.delivered { return "nothing: rejected before reaching the phone" }
        switch result.style {
        case .rich: return "rich notification, with image"
        case .plain: return "plain text"
        case .silent: return "nothing (silent)"
        }
    }

    private var explanation: (heading: String, sentence: String, code: String)? {
        if let failure = entry.failure {
            return ("Why nothing was sent", "The payload file could not be read.", TextSanitizer.singleLine(failure))
        }
        guard let result = entry.result else { return nil }
        if let rejection = result.rejection {
            return (
                "Why nothing was shown", OutcomeExplanation.sentence(for: rejection.reason),
                "\(rejection.reason.rawValue): \(TextSanitizer.singleLine(rejection.detail))"
            )
        }
        if let fallback = result.fallback {
            return (
                result.style == .silent ? "Why nothing was shown" : "Why there is no image",
                OutcomeExplanation.sentence(for: fallback.reason, limits: entry.limits(or: configuredLimits)),
                "\(fallback.reason.rawValue): \(TextSanitizer.singleLine(fallback.detail))"
            )
        }
        if result.style == .silent {
            return ("Why nothing was shown", OutcomeExplanation.silent, "silent")
        }
        return nil
    }

    private func section(_ title: String) -> StyledLine {
        StyledLine(title, .section)
    }

    /// "  Label       value", the value wrapped under itself.
    private func field(_ label: String, _ value: String, width: Int) -> [StyledLine] {
        let prefix = "  " + label + String(repeating: " ", count: max(1, Self.labelWidth - label.count))
        return hanging(prefix, TextSanitizer.singleLine(value), width: width, style: .plain)
    }

    /// `prefix` then `text`, continuation lines indented under the text; falls back to plain wrapping
    /// when the prefix leaves too little room.
    private func hanging(_ prefix: String, _ text: String, width: Int, style: TextStyle) -> [StyledLine] {
        let indent = TextWidth.of(prefix)
        guard width - indent >= 12 else {
            return wrapped(prefix.trimmingTrailingSpaces + " " + text, width: width, style: style)
        }
        let pad = String(repeating: " ", count: indent)
        return TextLayout.wrap(text, width: width - indent).enumerated().map { index, line in
            StyledLine((index == 0 ? prefix : pad) + line, style)
        }
    }

    private func wrapped(_ text: String, width: Int, style: TextStyle, indent: Int = 0) -> [StyledLine] {
        let pad = String(repeating: " ", count: indent)
        return TextLayout.wrap(text, width: max(1, width - indent)).map { StyledLine(pad + $0, style) }
    }
}

extension String {
    fileprivate var trimmingTrailingSpaces: String {
        var copy = self
        while copy.last == " " { copy.removeLast() }
        return copy
    }
}
