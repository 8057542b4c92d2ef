import RichPushCore

/// What the screen says about the phone's state and about how it let a notification through, as pure functions.
enum PhoneText {
    /// The header's words for the phone: "unlocked", or the settings that differ from a new iPhone's that the header
    /// keys change, e.g. "LOCKED · FOCUS · SUMMARY · SILENT".
    static func words(_ phone: DeviceState) -> String {
        var parts: [String] = []
        if phone.locked { parts.append("LOCKED") }
        switch phone.focus {
        case .off: break
        case .on: parts.append("FOCUS")
        case .onAllowingApp: parts.append("FOCUS (app allowed)")
        }
        if phone.summary { parts.append("SUMMARY") }
        if phone.silent { parts.append("SILENT") }
        switch phone.grouping {
        case .automatic: break
        case .byApp: parts.append("GROUPED BY APP")
        case .off: parts.append("NO GROUPING")
        }
        return parts.isEmpty ? "unlocked" : parts.joined(separator: " · ")
    }

    /// The row's word for a notification the phone does not show as a banner now: "held: Focus", "in summary",
    /// "from summary", "quiet", "lock screen", "foreground: no banner"; nil when it is a banner (or not delivered).
    static func rowWord(of entry: NotificationEntry) -> String? {
        guard let delivery = entry.delivery, entry.result?.delivered == true, entry.result?.style != .silent else {
            return nil
        }
        if entry.deliveredInSummary { return "from summary" }
        switch delivery.kind {
        case .heldByFocus: return "held: Focus"
        case .scheduledSummary: return "in summary"
        case .quiet: return "quiet"
        case .foregroundOptions:
            return delivery.shownIn.contains(.banner) ? nil : "foreground: no banner"
        case .immediate:
            return delivery.shownIn.contains(.banner) ? nil : "lock screen"
        }
    }

    /// The detail view's lines about the delivery: how, why, the screen, the sound, what it broke through.
    static func fields(of delivery: PresentedDelivery, deliveredInSummary: Bool) -> [(label: String, value: String)] {
        var fields: [(label: String, value: String)] = []
        var kind = kindWord(delivery.kind)
        if deliveredInSummary { kind += " (delivered with the summary)" }
        fields.append(("Delivery", kind))
        fields.append(("Why", delivery.reason))
        fields.append(("Level", delivery.level.rawValue))
        fields.append(("Screen", "\(delivery.screenLit ? "lit" : "not lit") — \(delivery.screenReason)"))
        fields.append(("Sound", "\(delivery.sound ? "played" : "none") — \(delivery.soundReason)"))
        let broke = PresentedDelivery.Barrier.allCases.compactMap { barrier in
            delivery.breaksThrough[barrier].map { "\(barrier.rawValue): \($0)" }
        }
        fields.append(("Breaks", broke.isEmpty ? "nothing" : broke.joined(separator: "; ")))
        let shown = delivery.shownIn.map { $0 == .lockScreen ? "lock screen / Notification Center" : $0.rawValue }
        fields.append(("Shown in", shown.isEmpty ? "nothing yet" : shown.joined(separator: ", ")))
        for note in delivery.notes { fields.append(("Note", note)) }
        return fields
    }

    static func kindWord(_ kind: PresentedDelivery.Kind) -> String {
        switch kind {
        case .immediate: "immediate"
        case .quiet: "quiet"
        case .scheduledSummary: "scheduled summary"
        case .heldByFocus: "held by Focus"
        case .foregroundOptions: "foreground options"
        }
    }
}
