import RichPushCore

/// What one notification's row says, as pure functions of the entry and the time.
enum NotificationSummary {
    /// "png 640x480 47.1 KB", "plain text — timeout: …", "rejected — …", "silent", or the live progress.
    /// `configured` are the limits quoted for a notification whose delivery has not reported its own.
    static func status(of entry: NotificationEntry, now: Double, configured: EffectiveLimits) -> StyledLine {
        if let failure = entry.failure {
            return StyledLine("error — \(TextSanitizer.singleLine(failure))", .danger)
        }
        if let rejection = entry.endpointRejection {
            return StyledLine("rejected — \(TextSanitizer.singleLine(rejection))", .danger)
        }
        guard let result = entry.result else {
            return StyledLine(progress(of: entry, now: now, configured: configured), .accent)
        }
        if let rejection = result.rejection {
            return StyledLine(
                "rejected — \(rejection.reason.rawValue): \(TextSanitizer.singleLine(rejection.detail))", .danger)
        }
        switch result.style {
        case .rich:
            guard let attachment = result.attachment else { return StyledLine("rich", .success) }
            return StyledLine(attachment.summary, .success)
        case .plain:
            guard let fallback = result.fallback else { return StyledLine("plain text", .plain) }
            return StyledLine(
                "plain text — \(fallback.reason.rawValue): \(TextSanitizer.singleLine(fallback.detail))", .warning)
        case .silent:
            guard let fallback = result.fallback else { return StyledLine("silent — nothing shown", .muted) }
            return StyledLine(
                "silent — \(fallback.reason.rawValue): \(TextSanitizer.singleLine(fallback.detail))", .muted)
        }
    }

    /// "downloading 12.3 KB · 3.2 s left of 5 s · 27.1 s left of 30 s budget", or the step before or after it.
    /// The limits are the notification's own (its payload's settings applied) once its delivery reported them.
    /// `withTotal` adds the size the server announced ("12.3 KB of 47.1 KB"), for the detail view.
    static func progress(
        of entry: NotificationEntry, now: Double, configured: EffectiveLimits, withTotal: Bool = false
    ) -> String {
        let limits = entry.limits(or: configured)
        var parts: [String] = []
        if entry.has(.presented) {
            // Shown already; what keeps the extension running is its display receipt.
            parts.append(entry.has(.receiptSent) ? "shown · display receipt in flight" : "shown")
        } else if let downloadStart = entry.time(of: .downloadStarted), !entry.has(.downloadFinished),
            !entry.has(.downloadFailed)
        {
            var downloading = "downloading \(ByteCount.text(entry.bytesReceived))"
            if withTotal, let expected = entry.bytesExpected { downloading += " of \(ByteCount.text(expected))" }
            parts.append(downloading)
            parts.append(
                "\(secondsLeft(limits.downloadTimeout.seconds - (now - downloadStart))) left of \(limits.downloadTimeout.shortDescription)"
            )
        } else if entry.has(.downloadFinished) || entry.has(.attachmentCreated) {
            parts.append("attaching the image")
        } else if entry.has(.downloadFailed) {
            parts.append("download failed, finishing")
        } else if entry.has(.extensionStarted) {
            parts.append("extension running")
        } else if entry.has(.received) {
            parts.append("received")
        } else {
            parts.append("sending")
        }
        if let extensionStart = entry.time(of: .extensionStarted) {
            parts.append(
                "\(secondsLeft(limits.extensionBudget.seconds - (now - extensionStart))) left of \(limits.extensionBudget.shortDescription) budget"
            )
        }
        return parts.joined(separator: " · ")
    }

    /// Arrival time of day: "14:03:22".
    static func arrival(of entry: NotificationEntry, startTimeOfDay: Double) -> String {
        Format.timeOfDay(startTimeOfDay + entry.sentAt)
    }

    /// The row's first line: title, then subtitle, sanitised to one line each.
    static func headline(of entry: NotificationEntry) -> (title: String, subtitle: String) {
        let content = entry.content
        return (TextSanitizer.singleLine(content.title), TextSanitizer.singleLine(content.subtitle))
    }

    private static func secondsLeft(_ seconds: Double) -> String {
        "\(Format.fixed(max(0, seconds), 1)) s"
    }
}
