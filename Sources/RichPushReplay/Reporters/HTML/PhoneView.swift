import RichPushCore

/// One view of a notification (lock screen, banner, expanded) drawn as the phone draws it, in a phone-width
/// frame: everything it shows comes from the ``PresentedView``; the browser wraps the text and cuts it with the
/// view's line clamps (`maxLines`), so no count is decided here.
struct PhoneView {
    /// The thumbnail's side in CSS pixels (an iPhone's points).
    static let thumbnailSide = 40.0

    var view: PresentedView
    var approximation: String
    /// The classes and notes of the card's pictures and players.
    var pictures: PictureLookup
    /// The level the notification was delivered at: time-sensitive and critical are labelled on the view.
    var level: HostContent.InterruptionLevel? = nil
    /// Why the person does not get this view, when the delivery does not show it: the view is drawn dimmed.
    var notShown: String? = nil

    /// What the card's media became, for the view to draw.
    struct PictureLookup {
        /// Per picture file (an image, a poster): the CSS class drawing it and its data URI.
        var classes: [String: String] = [:]
        var uris: [String: String] = [:]
        /// Per file: why it is not drawn or played.
        var notes: [String: String] = [:]
        /// Per player source: its data URI.
        var players: [String: String] = [:]

        func pictureClass(_ media: PresentedMedia) -> String? { media.file.flatMap { classes[$0] } }
        func posterURI(_ media: PresentedMedia) -> String? { media.file.flatMap { uris[$0] } }
        func pictureNote(_ media: PresentedMedia) -> String? { media.file.flatMap { notes[$0] } }
        func player(_ media: PresentedMedia) -> PhoneMedia.Embedded {
            if let source = media.source, let uri = players[source] { return .uri(uri) }
            return .notEmbedded(
                media.source.flatMap { notes[$0] } ?? "The \(media.kind.rawValue) file is not known.")
        }
    }

    var html: String {
        let kind = view.view
        let dimmed = notShown == nil ? "" : " pv-dimmed"
        var html = "<figure class=\"pv pv-\(kind.rawValue)\(dimmed)\" data-view=\"\(kind.rawValue)\">\n"
        html += "<figcaption class=\"pv-caption\">\(kind.label) "
        html += "<span class=\"pv-approx\" title=\"\(HTMLReporter.escape(approximation))\">approximate</span>"
        if let notShown {
            html += "<span class=\"pv-not-shown\">not shown: \(HTMLReporter.escape(notShown))</span>"
        }
        html += "</figcaption>\n<div class=\"pv-screen\">\n<div class=\"pv-platter\">\n"
        if kind == .expanded, let media = view.media { html += wide(media) }
        html += head
        html += "<div class=\"pv-row\">\n<div class=\"pv-text\">\n"
        html += "<div class=\"pv-titleline\">"
        if !view.title.full.isEmpty { html += text(view.title, field: "title") }
        html += "<span class=\"pv-time\">\(HTMLReporter.escape(view.timestamp))</span></div>\n"
        if !view.subtitle.full.isEmpty { html += text(view.subtitle, field: "subtitle") + "\n" }
        if !view.body.full.isEmpty { html += text(view.body, field: "body") + "\n" }
        html += "</div>\n"
        if let thumbnail = view.thumbnail { html += self.thumbnail(thumbnail) }
        html += "</div>\n"
        html += actions
        html += "</div>\n</div>\n</figure>\n"
        return html
    }

    /// The app's icon (its initial, with the badge) and name.
    private var head: String {
        let initial = view.appName.first.map { HTMLReporter.escape(String($0)) } ?? ""
        var html = "<div class=\"pv-head\"><span class=\"pv-icon\" aria-hidden=\"true\">\(initial)"
        if let badge = view.badge, badge > 0 {
            html += "<span class=\"pv-badge\" title=\"badge\">\(badge)</span>"
        }
        html += "</span><span class=\"pv-app\" dir=\"auto\">\(HTMLReporter.escape(view.appName))</span>"
        switch level {
        // The documented treatment of a third-party app's levels: a yellow Time Sensitive label, a red Critical one.
        case .timeSensitive?: html += "<span class=\"pv-level time-sensitive\">Time Sensitive</span>"
        case .critical?: html += "<span class=\"pv-level critical\">Critical</span>"
        default: break
        }
        if let badge = view.badge {
            html += "<span class=\"pv-badge-label\">badge \(badge)</span>"
        }
        return html + "</div>\n"
    }

    /// A field in its box: one line with an ellipsis, or a clamp of the model's line count.
    private func text(_ text: PresentedText, field: String) -> String {
        let lines = max(text.maxLines, 1)
        let style =
            lines == 1 ? "pv-one" : "pv-clamp\" style=\"-webkit-line-clamp:\(lines)"
        return "<p class=\"pv-\(field) \(style)\" data-max-lines=\"\(lines)\" data-truncated=\"\(text.truncated)\""
            + " dir=\"auto\">\(HTMLReporter.escape(text.full))</p>"
    }

    private func thumbnail(_ media: PresentedMedia) -> String {
        let label = media.kind == .image ? "thumbnail" : "\(media.kind.rawValue) thumbnail"
        // Audio has no picture: its symbol, not a missing image.
        if media.file == nil, media.kind != .image {
            let symbol = media.kind == .audio ? "♪" : "▶"
            return "<div class=\"pv-thumb missing\" role=\"img\" aria-label=\"\(label)\">\(symbol)</div>\n"
        }
        guard let className = pictures.pictureClass(media) else {
            return "<div class=\"pv-thumb missing\" role=\"img\" aria-label=\"\(label) not embedded\""
                + " title=\"\(HTMLReporter.escape(pictures.pictureNote(media) ?? ""))\">?</div>\n"
        }
        let crop = media.crop.map { " data-crop=\"\($0.x),\($0.y),\($0.width),\($0.height)\"" } ?? ""
        return "<div class=\"pv-thumb \(className)\" role=\"img\" aria-label=\"\(label)\"\(crop)"
            + " style=\"\(PhoneMedia.thumbnailStyle(media, side: Self.thumbnailSide))\"></div>\n"
    }

    /// The media across the view: the picture at its aspect ratio, or the player.
    private func wide(_ media: PresentedMedia) -> String {
        let ratio = "\(max(media.width, 1))/\(max(media.height, 1))"
        let poster = pictures.pictureClass(media)
        var html = "<div class=\"pv-wide pv-\(media.kind.rawValue)\">"
        switch media.kind {
        case .image:
            if let poster {
                html +=
                    "<div class=\"pv-picture \(poster)\" role=\"img\" aria-label=\"image\" style=\"aspect-ratio:\(ratio)\"></div>"
            } else {
                html += "<div class=\"pv-picture missing\" role=\"img\" aria-label=\"image not embedded\">?</div>"
                if let note = pictures.pictureNote(media) {
                    html += "<p class=\"pv-why\">\(HTMLReporter.escape(note))</p>"
                }
            }
        case .video, .audio:
            html += player(media, ratio: ratio, poster: poster)
        }
        return html + "</div>\n"
    }

    private func player(_ media: PresentedMedia, ratio: String, poster: String?) -> String {
        let duration = media.duration.map { "<span class=\"pv-duration\">\(PhoneMedia.duration($0))</span>" } ?? ""
        switch pictures.player(media) {
        case .uri(let uri):
            if media.kind == .audio {
                return "<audio controls preload=\"metadata\" src=\"\(uri)\"></audio>\(duration)"
            }
            let posterURI = poster == nil ? nil : pictures.posterURI(media)
            return "<video controls preload=\"metadata\" playsinline style=\"aspect-ratio:\(ratio)\""
                + (posterURI.map { " poster=\"\($0)\"" } ?? "") + " src=\"\(uri)\"></video>\(duration)"
        case .notEmbedded(let why):
            var html = ""
            if let poster {
                html +=
                    "<div class=\"pv-picture \(poster)\" role=\"img\" aria-label=\"poster frame\" style=\"aspect-ratio:\(ratio)\"></div>"
            } else if media.kind == .video {
                html += "<div class=\"pv-picture missing\" role=\"img\" aria-label=\"no poster\">▶</div>"
            }
            html += duration
            return html + "<p class=\"pv-why\">\(HTMLReporter.escape(why))</p>"
        }
    }

    /// How many actions the view has no room for, then the buttons as the model lists them: the destructive ones
    /// red, a text input with its bar.
    private var actions: String {
        var html = ""
        if view.actionsLeftOut > 0 {
            let count = view.actionsLeftOut
            let words =
                view.view == .expanded
                ? "\(count) more action\(count == 1 ? "" : "s") than this view shows"
                : "\(count) action\(count == 1 ? "" : "s") not shown here (long-press)"
            html += "<p class=\"pv-left-out\">\(words)</p>\n"
        }
        if !view.actions.isEmpty {
            html += "<div class=\"pv-actions\" role=\"list\">\n"
            for action in view.actions {
                var classes = "pv-action"
                if action.destructive { classes += " destructive" }
                if action.textInput != nil { classes += " text-input" }
                html +=
                    "<button type=\"button\" role=\"listitem\" class=\"\(classes)\""
                    + " data-action=\"\(HTMLReporter.escape(action.identifier))\">"
                if let icon = action.icon {
                    html += "<span class=\"pv-symbol\">\(HTMLReporter.escape(icon))</span>"
                }
                html += "<span class=\"pv-action-title\" dir=\"auto\">\(HTMLReporter.escape(action.title))</span>"
                var marks: [String] = []
                if action.authenticationRequired { marks.append("unlock first") }
                if action.foreground { marks.append("opens the app") }
                if !marks.isEmpty { html += "<span class=\"pv-marks\">\(marks.joined(separator: " · "))</span>" }
                if let input = action.textInput {
                    html +=
                        "<span class=\"pv-inputbar\"><span class=\"pv-placeholder\" dir=\"auto\">"
                        + "\(HTMLReporter.escape(input.placeholder))</span><span class=\"pv-send\" dir=\"auto\">"
                        + "\(HTMLReporter.escape(input.buttonTitle))</span></span>"
                }
                html += "</button>\n"
            }
            html += "</div>\n"
        }
        return html
    }
}
