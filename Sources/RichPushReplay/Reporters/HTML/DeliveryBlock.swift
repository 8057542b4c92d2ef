import RichPushCore

/// How a notification reached the person, as the card says it above the phone views: the model's
/// ``PresentedDelivery`` (its kind and reason, the screen and the sound, what it broke through) and why the previews
/// are hidden. Every word of a reason is the model's, escaped.
enum DeliveryBlock {
    /// The kind in a few words: "shown at once", "held by Focus", …
    static func words(_ kind: PresentedDelivery.Kind) -> String {
        switch kind {
        case .immediate: "at once"
        case .quiet: "quietly"
        case .scheduledSummary: "in the Scheduled Summary"
        case .heldByFocus: "held by Focus"
        case .foregroundOptions: "as the app in the foreground asks"
        }
    }

    /// What a barrier is called on a badge.
    static func name(_ barrier: PresentedDelivery.Barrier) -> String {
        switch barrier {
        case .focus: "Focus"
        case .summary: "Scheduled Summary"
        case .silent: "silent"
        }
    }

    /// Whether the person gets `view`, and if not why in a few words. The expanded view is the long-press of a
    /// shown one, so it is there whenever another view is (the model lists the views drawn at once).
    static func notShown(_ view: NotificationView, delivery: PresentedDelivery) -> String? {
        if delivery.shownIn.contains(view) { return nil }
        if view == .expanded, !delivery.shownIn.isEmpty { return nil }
        switch delivery.kind {
        case .heldByFocus: return "held by Focus"
        case .scheduledSummary: return "waits for the Scheduled Summary"
        case .quiet: return "delivered quietly"
        case .foregroundOptions: return "the app is in the foreground"
        case .immediate: return view == .banner ? "the phone is locked" : "not drawn at once"
        }
    }

    /// The block: the delivery line, the screen and the sound, the badges of what it broke through, the hidden
    /// previews.
    static func html(_ presentation: NotificationPresentation) -> String {
        guard let delivery = presentation.delivery else { return "" }
        let kind = words(delivery.kind)
        // The model's reason may open with the kind's own words ("held by Focus: …"): not said twice.
        var reason = Substring(delivery.reason)
        if reason.hasPrefix(kind + ": ") { reason = reason.dropFirst(kind.count + 2) }
        var html = "<div class=\"delivery kind-\(delivery.kind.rawValue)\">\n"
        html +=
            "<p class=\"dl-line\"><b>Delivered:</b> <span class=\"dl-kind\">\(kind)</span> — "
            + "<bdi>\(HTMLReporter.escape(String(reason)))</bdi></p>\n"
        html += "<p class=\"dl-facts\">"
        html +=
            "<span class=\"dl-screen\">Screen: \(delivery.screenLit ? "lit" : "not lit") — "
            + "<bdi>\(HTMLReporter.escape(delivery.screenReason))</bdi></span>"
        html +=
            "<span class=\"dl-sound\">Sound: \(delivery.sound ? "played" : "none") — "
            + "<bdi>\(HTMLReporter.escape(delivery.soundReason))</bdi></span>"
        switch delivery.level {
        case .timeSensitive: html += "<span class=\"dl-level time-sensitive\">Time Sensitive</span>"
        case .critical: html += "<span class=\"dl-level critical\">Critical</span>"
        case .passive, .active: html += "<span class=\"dl-level\">\(delivery.level.rawValue)</span>"
        }
        html += "</p>\n"
        let broken = PresentedDelivery.Barrier.allCases.compactMap { barrier in
            delivery.breaksThrough[barrier].map { (barrier, $0) }
        }
        if !broken.isEmpty {
            html += "<ul class=\"dl-breaks\">"
            for (barrier, rule) in broken {
                html +=
                    "<li class=\"dl-break break-\(barrier.rawValue)\">broke through \(name(barrier)): "
                    + "<bdi>\(HTMLReporter.escape(rule))</bdi></li>"
            }
            html += "</ul>\n"
        }
        if let hidden = presentation.previewsHidden {
            html += "<p class=\"dl-previews\">Previews hidden: <bdi>\(HTMLReporter.escape(hidden))</bdi></p>\n"
        }
        return html + "</div>\n"
    }
}
