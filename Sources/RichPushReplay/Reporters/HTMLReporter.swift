import Foundation
public import RichPushCore
public import RichPushLibrary

/// One self-contained HTML page for people who do not run terminals: every notification drawn as the lock
/// screen shows it, with its real image, and in plain words why an image is missing.
///
/// - Self-contained: CSS inline, images, audio and video as `data:` URIs, no script at all; a
///   Content-Security-Policy forbids scripts, connections, frames and any load that is not a `data:` image or
///   medium, so opening the file requests nothing.
/// - The phone: each card draws the notification's ``NotificationPresentation``, its lock screen, banner and
///   expanded views side by side at a phone's width, light or dark (the viewer's setting or the page's switch);
///   the browser wraps the text and cuts it with the model's line counts. A thread's notifications are also drawn
///   stacked, as the lock screen groups them. ``screenshotPages(_:)`` draws each view alone, for `--screenshots`.
/// - The phone's state: how the notification reached the person (``PresentedDelivery``) is a line above its views,
///   the views it did not get are dimmed with why, and the notifications waiting for the Scheduled Summary are a
///   card of their own, by relevance. A `ReplayMatrix` of phone states renders as such a page, with a table per
///   card (the device matrix).
/// - Filters (outcome, app state) are radio buttons and CSS, so they work from a file, without a server.
/// - Payload text is hostile input: control characters and bidirectional overrides are removed, everything is
///   escaped for its context, text is isolated (`<bdi>`) so right-to-left text cannot reorder the card, and only
///   https URLs become links.
/// - Images: the attachment's own bytes (PNG, JPEG, GIF animate as on the phone), one `<img>` per card that is a
///   thumbnail when the card is closed and the large image when it is open. An image over
///   ``maxEmbeddedImageBytes`` or beyond the report's ``maxTotalImageBytes`` is not embedded; the card says so.
public struct HTMLReporter: Sendable {
    /// The largest attachment embedded (the iOS limit is 10 MB; a report of many such images would not open).
    public var maxEmbeddedImageBytes = 4 * 1024 * 1024
    /// All embedded images together.
    public var maxTotalImageBytes = 128 * 1024 * 1024
    /// The largest audio or video embedded for a player (iOS allows 5 MB of audio and 50 MB of video); larger
    /// ones show their poster and say why. They count against ``maxTotalImageBytes`` too.
    public var maxEmbeddedMediaBytes = 16 * 1024 * 1024
    public var context: ReportContext
    /// An attachment's bytes, as its front end reads them (the reporter reads no file itself); nil when they are
    /// gone.
    public var attachmentBytes: @Sendable (Attachment) -> [UInt8]?
    /// A file the phone views draw (a poster frame, a video or audio for its player), read up to a limit, as its
    /// front end reads it (``SafeFileReader/read(_:limit:)``); by default none is read.
    public var fileBytes: @Sendable (_ path: String, _ limit: Int) -> SafeFileReader.Outcome

    public init(
        context: ReportContext = ReportContext(),
        attachmentBytes: @escaping @Sendable (Attachment) -> [UInt8]? = { _ in nil },
        fileBytes: @escaping @Sendable (_ path: String, _ limit: Int) -> SafeFileReader.Outcome = { _, _ in
            .failure("not read")
        }
    ) {
        self.context = context
        self.attachmentBytes = attachmentBytes
        self.fileBytes = fileBytes
    }

    public func render(_ report: ReplayReport) -> String {
        render(report, extras: [:])
    }

    /// The page; `extras` go into the card of their index, under its phone views (the device matrix's tables).
    func render(_ report: ReplayReport, title: String = "richpush replay", extras: [Int: String]) -> String {
        var budget = maxTotalImageBytes
        var html = head(report, title: title)
        html += filters(report)
        html += "<main class=\"cards\">\n"
        if let summary = SummaryCard(report.items) { html += summary.html }
        let stacks = ThreadStack.threads(report.items)
        for (index, item) in report.items.enumerated() {
            html += card(item, index: index, stack: stacks[index], extra: extras[index] ?? "", budget: &budget)
        }
        if report.items.isEmpty { html += "<p class=\"empty\">No payloads were replayed.</p>\n" }
        html += "</main>\n<footer>Made by richpush \(Self.escape(context.version)).</footer>\n</body>\n</html>\n"
        return html
    }

    // MARK: - Page

    static let contentSecurityPolicy =
        "default-src 'none'; img-src data:; media-src data:; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'"

    private func head(_ report: ReplayReport, title: String) -> String {
        let counts = Counts(report)
        var html = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta http-equiv="Content-Security-Policy" content="\(Self.contentSecurityPolicy)">
            <meta name="referrer" content="no-referrer">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="color-scheme" content="light dark">
            <title>\(title): \(report.items.count) notification\(report.items.count == 1 ? "" : "s")</title>
            <style>\(Self.css)\(PhoneStyle.css)</style>
            </head>
            <body>
            <header class="run">
            <h1>\(title)</h1>
            <p class="when">\(Self.escape(Self.timestamp(context.generatedAt))) · richpush \(Self.escape(context.version)) · \
            \(report.items.count) notification\(report.items.count == 1 ? "" : "s") in \(Self.seconds(report.elapsed))</p>

            """
        html += "<ul class=\"counts\">"
        for (label, value, kind) in [
            ("rich", counts.rich, "rich"), ("plain", counts.plain, "plain"), ("silent", counts.silent, "silent"),
            ("rejected", counts.rejected, "rejected"), ("unreadable", counts.unreadable, "error"),
            ("expectations passed", report.passed, "pass"), ("expectations failed", report.failed, "fail"),
        ] where value > 0 || ["rich", "plain", "pass", "fail"].contains(kind) {
            html += "<li class=\"count-\(kind)\"><b>\(value)</b> \(label)</li>"
        }
        html += "</ul>\n"
        if !context.settings.isEmpty {
            html += "<dl class=\"settings\">"
            for setting in context.settings {
                html += "<div><dt>\(Self.escape(setting.name))</dt><dd>\(Self.escape(setting.value))</dd></div>"
            }
            html += "</dl>\n"
        }
        html += "</header>\n"
        return html
    }

    /// Radio buttons before `main`, so CSS sibling selectors can hide the cards a filter leaves out.
    private func filters(_ report: ReplayReport) -> String {
        let counts = Counts(report)
        let outcomes: [(id: String, label: String, count: Int)] = [
            ("all", "All", report.items.count), ("rich", "Rich", counts.rich), ("plain", "Plain", counts.plain),
            ("silent", "Silent", counts.silent), ("rejected", "Rejected", counts.rejected + counts.unreadable),
            ("failed", "Failed expectations", report.failed),
        ]
        let states: [(id: String, label: String)] = [
            ("all", "Any state"), ("foreground", "Foreground"), ("background", "Background"), ("closed", "Closed"),
        ]
        var html = ""
        for outcome in outcomes {
            html +=
                "<input class=\"filter\" type=\"radio\" name=\"outcome\" id=\"o-\(outcome.id)\"\(outcome.id == "all" ? " checked" : "")>\n"
        }
        for state in states {
            html +=
                "<input class=\"filter\" type=\"radio\" name=\"state\" id=\"s-\(state.id)\"\(state.id == "all" ? " checked" : "")>\n"
        }
        let schemes = [("auto", "Phone: as your system"), ("light", "Light"), ("dark", "Dark")]
        for (id, _) in schemes {
            html +=
                "<input class=\"filter\" type=\"radio\" name=\"phone\" id=\"ph-\(id)\"\(id == "auto" ? " checked" : "")>\n"
        }
        html += "<nav class=\"filters\" aria-label=\"Filters\">\n<div class=\"group\">"
        for outcome in outcomes {
            html += "<label for=\"o-\(outcome.id)\">\(outcome.label) <span>\(outcome.count)</span></label>"
        }
        html += "</div>\n<div class=\"group\">"
        for state in states { html += "<label for=\"s-\(state.id)\">\(state.label)</label>" }
        html += "</div>\n<div class=\"group\">"
        for (id, label) in schemes { html += "<label for=\"ph-\(id)\">\(label)</label>" }
        html += "</div>\n</nav>\n"
        return html
    }

    // MARK: - Cards

    private func card(
        _ item: ReplayItem, index: Int, stack: ThreadStack?, extra: String = "", budget: inout Int
    ) -> String {
        let verdict: String
        switch item.verdict {
        case .unchecked: verdict = "none"
        case .passed: verdict = "pass"
        case .failed: verdict = "fail"
        }
        guard let result = item.result else {
            return """
                <article class="card outcome-error state-none verdict-\(verdict)" id="n\(index)">
                <div class="app-line"><span class="app">Not replayed</span></div>
                <p class="title"><bdi>\(Self.escape(item.file.path))</bdi></p>
                <p class="reason">\(Self.escape(item.error ?? "The file could not be read."))</p>
                \(extra)</article>

                """
        }
        let outcome = result.rejection != nil ? "rejected" : result.style.rawValue
        // The attachment once: the card's image and the phone views' pictures share it.
        let embedded = result.attachment.map { embed($0, budget: &budget) }
        var phone: PhoneParts?
        if let presentation = result.presentation {
            var known: [String: PhoneMedia.Embedded] = [:]
            switch (result.attachment, embedded) {
            case (let attachment?, .success(let uri)?): known[attachment.file] = .uri(uri)
            case (let attachment?, .failure(let note)?): known[attachment.file] = .notEmbedded(note.message)
            default: break
            }
            phone = phoneParts(result, presentation: presentation, card: index, known: known, budget: &budget)
        }
        var html = ""
        if let stack, let top = phone?.views[.lockScreen] { html += stack.html(top: top) }
        html +=
            "<article class=\"card outcome-\(outcome) state-\(result.appState.rawValue) verdict-\(verdict)\" id=\"n\(index)\">\n"
        if let phone { html += phoneSection(phone) }
        html += extra
        html += "<details>\n<summary>\n"
        html += "<div class=\"app-line\"><span class=\"app\">\(Self.appName(result))</span>"
        html += "<span class=\"meta\">\(result.appState.rawValue) · \(Self.seconds(result.elapsed))</span></div>\n"
        html += "<div class=\"row\">\n<div class=\"text\">\n"
        if let sender = result.communication {
            // A communication notification: iOS shows the sender's avatar and name.
            html += "<p class=\"sender\">"
            if let avatar = sender.avatar,
                case .success(let dataURI) = embed(
                    Attachment(url: avatar.file.absoluteString, image: avatar), budget: &budget)
            {
                html += "<img class=\"avatar\" src=\"\(dataURI)\" width=\"28\" height=\"28\" alt=\"\">"
            }
            html += "<bdi>\(Self.escape(sender.senderName))</bdi>"
            if let group = sender.groupName {
                html += " <span class=\"meta\">in <bdi>\(Self.escape(group))</bdi></span>"
            }
            html += "</p>\n"
        }
        if let rejection = result.rejection {
            html += "<p class=\"title\">Rejected: \(rejection.reason.rawValue)</p>\n"
            html += "<p class=\"body\"><bdi>\(Self.escape(rejection.detail))</bdi></p>\n"
        } else {
            for (field, text) in [
                ("title", result.content.title), ("subtitle", result.content.subtitle), ("body", result.content.body),
            ] where !text.isEmpty {
                html += "<p class=\"\(field)\"><bdi>\(Self.escape(text))</bdi></p>\n"
            }
            if !result.content.hasAlertText { html += "<p class=\"body muted\">(nothing shown)</p>\n" }
        }
        html += "</div>\n"
        var imageNote: String?
        if let attachment = result.attachment, let embedded {
            switch embedded {
            case .success(let dataURI):
                html +=
                    "<img class=\"media\" decoding=\"async\" src=\"\(dataURI)\" width=\"\(attachment.width)\" height=\"\(attachment.height)\" alt=\"\(Self.escape(attachment.summary))\">\n"
            case .failure(let note):
                imageNote = note.message
                html += "<div class=\"media missing\" role=\"img\" aria-label=\"image not embedded\">?</div>\n"
            }
        }
        html += "</div>\n"
        html +=
            "<p class=\"outcome\"><span>\(Self.escape(Self.outcomeLine(result)))</span><span class=\"file\"><bdi>\(Self.escape(item.file.path))</bdi></span></p>\n"
        html += "</summary>\n<div class=\"expanded\">\n"
        if let sentence = OutcomeExplanation.sentence(for: result) {
            html += "<p class=\"reason\">\(Self.escape(sentence))</p>\n"
        }
        if let imageNote { html += "<p class=\"note\">\(Self.escape(imageNote))</p>\n" }
        if let hint = result.hint { html += "<p class=\"hint\"><b>Hint:</b> <bdi>\(Self.escape(hint))</bdi></p>\n" }
        html += verdictBlock(item.verdict)
        html += facts(item, result)
        html += timeline(result)
        html += payload(item.file.path)
        html += "</div>\n</details>\n</article>\n"
        return html
    }

    private func verdictBlock(_ verdict: ReplayItem.Verdict) -> String {
        switch verdict {
        case .unchecked:
            return "<p class=\"verdict none\">No expectation file: nothing was checked.</p>\n"
        case .passed:
            return "<p class=\"verdict pass\">Expectation passed.</p>\n"
        case .failed(let problems):
            var html = "<div class=\"verdict fail\"><p>Expectation failed:</p><ul>"
            for problem in problems { html += "<li><bdi>\(Self.escape(problem))</bdi></li>" }
            return html + "</ul></div>\n"
        }
    }

    private func facts(_ item: ReplayItem, _ result: DeliveryResult) -> String {
        var rows: [(String, String)] = [("File", Self.escape(item.file.path)), ("App state", result.appState.rawValue)]
        if let source = result.source { rows.append(("Source", source.rawValue)) }
        if let url = result.imageURL { rows.append(("Image URL", Self.link(url))) }
        if let attachment = result.attachment {
            rows.append(("Image", Self.escape(attachment.summary)))
            rows.append(("SHA-256", "<code>\(Self.escape(attachment.sha256))</code>"))
        }
        if let fallback = result.fallback {
            rows.append(("Fallback", "<code>\(fallback.reason.rawValue)</code> \(Self.escape(fallback.detail))"))
        }
        if let identity = result.extensionIdentity, identity.kind == .custom {
            let calls = result.contentHandlerCalls ?? 0
            rows.append(
                (
                    "Your extension",
                    "<bdi>\(Self.escape(identity.principalClass ?? ""))</bdi> from <bdi>\(Self.escape(identity.source ?? ""))</bdi>, content handler called \(calls) time\(calls == 1 ? "" : "s")"
                ))
            if let process = result.extensionProcess {
                rows.append(("Its process", Self.escape("\(process.summary), mode \(process.mode)")))
            }
            if let crossTalk = result.crossTalk {
                rows.append(("Cross-talk", "<bdi>\(Self.escape(crossTalk.detail))</bdi>"))
            }
            if !result.extensionLog.isEmpty {
                let log = result.extensionLog.suffix(20).map { Self.escape(TextSanitizer.singleLine($0, limit: 300)) }
                rows.append(("Its output", "<pre><bdi>\(log.joined(separator: "\n"))</bdi></pre>"))
            }
        }
        if let sender = result.communication {
            var text = "<bdi>\(Self.escape(sender.senderName))</bdi>"
            if let handle = sender.senderHandle { text += " (<bdi>\(Self.escape(handle))</bdi>)" }
            if let group = sender.groupName { text += ", in <bdi>\(Self.escape(group))</bdi>" }
            if let avatar = sender.avatar {
                text += ", avatar \(avatar.format.rawValue) \(avatar.width)x\(avatar.height)"
            } else if let problem = sender.avatarProblem {
                text += ", no avatar: \(Self.escape(problem))"
            }
            rows.append(("Sender", text))
        }
        if let receipt = result.receipt {
            rows.append(
                ("Receipt", "<bdi>\(Self.escape(receipt.summary))</bdi> to <bdi>\(Self.escape(receipt.url))</bdi>"))
        }
        if let limits = result.limits {
            rows.append(
                (
                    "Limits",
                    Self.escape(
                        "download \(limits.downloadTimeout.shortDescription), extension \(limits.extensionBudget.shortDescription), image \(ByteCount.limit(limits.downloadMaxBytes))"
                    )
                ))
        }
        let attributes: [(String, String?)] = [
            ("Badge", result.badge.map(String.init)), ("Sound", result.sound), ("Thread", result.threadID),
            ("Category", result.category), ("Interruption level", result.interruptionLevel),
            ("Relevance score", result.relevanceScore.map { "\($0)" }), ("Target content", result.targetContentID),
            ("Push ID", result.pushID), ("Collapse ID", result.collapseID),
        ]
        for case (let name, let value?) in attributes { rows.append((name, "<bdi>\(Self.escape(value))</bdi>")) }
        var html = "<dl class=\"facts\">"
        for (name, value) in rows { html += "<div><dt>\(name)</dt><dd>\(value)</dd></div>" }
        return html + "</dl>\n"
    }

    private func timeline(_ result: DeliveryResult) -> String {
        var html = "<details class=\"more\"><summary>Timeline</summary><table class=\"timeline\">"
        for event in result.timeline {
            html +=
                "<tr><td>\(Self.seconds(event.at))</td><td>\(event.kind.rawValue)</td><td><bdi>\(Self.escape(event.detail))</bdi></td></tr>"
        }
        return html + "</table></details>\n"
    }

    /// The payload as the file holds it, pretty-printed when it is JSON.
    private func payload(_ path: String) -> String {
        let loaded = LoadedPayload.load(PayloadFile(path: path))
        let text: String
        if let bytes = loaded.bytes {
            if let document = try? JSONParser.parse(bytes) {
                text = JSONWriter.string(document, pretty: true)
            } else {
                text = String(decoding: bytes, as: UTF8.self)
            }
        } else if let size = loaded.oversizedBytes {
            text = "(\(ByteCount.text(size)): too large to show)"
        } else {
            text = "(\(loaded.readError ?? "the file could not be read"))"
        }
        return "<details class=\"more\"><summary>Payload</summary><pre>\(Self.escape(text))</pre></details>\n"
    }

    // MARK: - Images

    private struct NotEmbedded: Error {
        var message: String
    }

    private func embed(_ attachment: Attachment, budget: inout Int) -> Result<String, NotEmbedded> {
        // A picture the codecs could not decode is not drawn on the phone either: no broken image on the card.
        if attachment.decoded == false {
            return .failure(
                NotEmbedded(
                    message:
                        "The image is not shown: \(attachment.decodeError ?? "its data could not be decoded")."
                ))
        }
        if attachment.bytes > maxEmbeddedImageBytes {
            return .failure(
                NotEmbedded(
                    message:
                        "The image (\(ByteCount.text(attachment.bytes))) is not embedded: the report embeds images up to \(ByteCount.limit(maxEmbeddedImageBytes))."
                ))
        }
        if attachment.bytes > budget {
            return .failure(
                NotEmbedded(
                    message:
                        "The image is not embedded: the report already holds \(ByteCount.limit(maxTotalImageBytes)) of images."
                ))
        }
        guard let bytes = attachmentBytes(attachment), bytes.count == attachment.bytes else {
            return .failure(NotEmbedded(message: "The image file was no longer there when the report was written."))
        }
        budget -= bytes.count
        // The MIME type is the detected format's, never what a server or payload claimed.
        return .success("data:\(attachment.format.mimeType);base64,\(Data(bytes).base64EncodedString())")
    }

    // MARK: - Text

    /// Payload text for an element or an attribute: controls and direction overrides removed, markup escaped.
    public static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in TextSanitizer.clean(text) {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// An https URL as a link that opens apart from the report; anything else as plain text.
    public static func link(_ text: String) -> String {
        guard let url = URL(string: text), url.scheme?.lowercased() == "https", url.host?.isEmpty == false,
            !text.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F })
        else {
            return "<bdi>\(escape(text))</bdi>"
        }
        return
            "<a href=\"\(escape(url.absoluteString))\" rel=\"noopener noreferrer nofollow\" target=\"_blank\"><bdi>\(escape(text))</bdi></a>"
    }

    static func appName(_ result: DeliveryResult) -> String {
        switch result.source {
        case .fcmV1?: "APP · FCM"
        case .simulator?: "APP · SIMULATOR"
        default: "APP"
        }
    }

    static func outcomeLine(_ result: DeliveryResult) -> String {
        if let rejection = result.rejection { return "rejected · \(rejection.reason.rawValue)" }
        if let attachment = result.attachment { return "rich · \(attachment.summary)" }
        if let fallback = result.fallback { return "\(result.style.rawValue) · \(fallback.reason.rawValue)" }
        return result.style.rawValue
    }

    static func seconds(_ value: Double) -> String {
        let milliseconds = (value * 1000).rounded()
        return milliseconds < 1000 ? "\(Int(milliseconds)) ms" : "\((milliseconds / 100).rounded() / 10) s"
    }

    static func timestamp(_ date: Date) -> String {
        date.formatted(.iso8601.year().month().day().dateSeparator(.dash).time(includingFractionalSeconds: false))
    }

    private struct Counts {
        var rich = 0, plain = 0, silent = 0, rejected = 0, unreadable = 0
        init(_ report: ReplayReport) {
            for item in report.items {
                guard let result = item.result else {
                    unreadable += 1
                    continue
                }
                if result.rejection != nil {
                    rejected += 1
                } else {
                    switch result.style {
                    case .rich: rich += 1
                    case .plain: plain += 1
                    case .silent: silent += 1
                    }
                }
            }
        }
    }

    // MARK: - Style

    static let css = """
        :root{--bg:#e9e7ef;--card:rgba(255,255,255,.86);--text:#111;--muted:#6b6b73;--line:#d7d5de;--accent:#0a63d1;\
        --pass:#1a7f37;--fail:#c62828;--chip:#fff}
        @media (prefers-color-scheme:dark){:root{--bg:#111114;--card:rgba(44,44,50,.92);--text:#f2f2f5;--muted:#a3a3ad;\
        --line:#3a3a42;--accent:#5aa2ff;--pass:#4cc26b;--fail:#ff6b6b;--chip:#26262c}}
        *{box-sizing:border-box}
        body{margin:0;padding:16px;background:var(--bg);color:var(--text);\
        font:15px/1.35 -apple-system,BlinkMacSystemFont,"Segoe UI",Roboto,"Noto Sans","Noto Sans CJK SC",sans-serif,\
        "Noto Color Emoji"}
        header.run,nav.filters,main.cards,footer{max-width:1240px;margin:0 auto}
        h1{font-size:22px;margin:0 0 4px}
        .when{color:var(--muted);margin:0 0 10px}
        .counts{display:flex;flex-wrap:wrap;gap:6px;list-style:none;padding:0;margin:0 0 10px}
        .counts li{background:var(--chip);border-radius:999px;padding:3px 10px}
        .count-fail b{color:var(--fail)}.count-pass b{color:var(--pass)}
        .settings{display:flex;flex-wrap:wrap;gap:4px 16px;margin:0 0 12px;color:var(--muted);font-size:13px}
        .settings div{display:flex;gap:4px}.settings dt{font-weight:600}.settings dd{margin:0}
        .filter{position:absolute;opacity:0;pointer-events:none}
        nav.filters{display:flex;flex-direction:column;gap:6px;margin-bottom:14px}
        nav .group{display:flex;flex-wrap:wrap;gap:6px}
        nav label{background:var(--chip);border:1px solid var(--line);border-radius:999px;padding:4px 12px;cursor:pointer;\
        user-select:none}
        nav label span{color:var(--muted)}
        #o-all:checked~nav label[for=o-all],#o-rich:checked~nav label[for=o-rich],\
        #o-plain:checked~nav label[for=o-plain],#o-silent:checked~nav label[for=o-silent],\
        #o-rejected:checked~nav label[for=o-rejected],#o-failed:checked~nav label[for=o-failed],\
        #s-all:checked~nav label[for=s-all],#s-foreground:checked~nav label[for=s-foreground],\
        #s-background:checked~nav label[for=s-background],#s-closed:checked~nav label[for=s-closed]\
        {background:var(--accent);border-color:var(--accent);color:#fff}
        #o-all:checked~nav label[for=o-all] span,#o-rich:checked~nav label[for=o-rich] span,\
        #o-plain:checked~nav label[for=o-plain] span,#o-silent:checked~nav label[for=o-silent] span,\
        #o-rejected:checked~nav label[for=o-rejected] span,#o-failed:checked~nav label[for=o-failed] span{color:#fff}
        .filter:focus-visible+*{outline:2px solid var(--accent)}
        #o-rich:checked~main .card:not(.outcome-rich),#o-plain:checked~main .card:not(.outcome-plain),\
        #o-silent:checked~main .card:not(.outcome-silent),\
        #o-rejected:checked~main .card:not(.outcome-rejected):not(.outcome-error),\
        #o-failed:checked~main .card:not(.verdict-fail),\
        #s-foreground:checked~main .card:not(.state-foreground),\
        #s-background:checked~main .card:not(.state-background),#s-closed:checked~main .card:not(.state-closed)\
        {display:none}
        .card{background:var(--card);border-radius:18px;padding:10px 14px;margin:0 0 10px;\
        box-shadow:0 1px 2px rgba(0,0,0,.12);overflow-wrap:anywhere;content-visibility:auto;\
        contain-intrinsic-size:auto 480px}
        .card.verdict-fail{box-shadow:inset 3px 0 0 var(--fail),0 1px 2px rgba(0,0,0,.12)}
        .card summary{list-style:none;cursor:pointer}
        .card summary::-webkit-details-marker{display:none}
        .app-line{display:flex;justify-content:space-between;gap:8px;font-size:12px;color:var(--muted);\
        margin-bottom:2px}
        .app{text-transform:uppercase;letter-spacing:.02em}
        .row{display:flex;gap:10px;align-items:flex-start}
        .text{flex:1;min-width:0}
        .text p{margin:0}
        bdi{unicode-bidi:isolate}
        .title{font-weight:600}
        .muted{color:var(--muted)}
        .media{flex:none;width:56px;height:56px;object-fit:cover;border-radius:8px;background:var(--line)}
        .sender{display:flex;align-items:center;gap:6px;margin:0 0 2px;font-weight:600}
        .sender .avatar{width:28px;height:28px;border-radius:50%;object-fit:cover}
        .media.missing{display:flex;align-items:center;justify-content:center;color:var(--muted)}
        details[open]>summary .row{flex-direction:column-reverse}
        details[open]>summary .media{width:100%;height:auto;max-height:70vh;object-fit:contain;border-radius:12px}
        details[open]>summary .media.missing{height:120px}
        .outcome{display:flex;justify-content:space-between;gap:8px;margin:4px 0 0;font-size:12px;color:var(--muted)}
        .outcome .file{text-align:right;min-width:0}
        .expanded{border-top:1px solid var(--line);margin-top:8px;padding-top:8px}
        .reason{margin:0 0 6px}.hint,.note{margin:0 0 6px;color:var(--muted)}
        .verdict{margin:0 0 6px;font-weight:600}.verdict.pass{color:var(--pass)}.verdict.fail{color:var(--fail)}
        .verdict.none{color:var(--muted);font-weight:400}
        .verdict p{margin:0}.verdict ul{margin:2px 0 0;padding-left:18px;font-weight:400}
        .facts{margin:0 0 6px;font-size:13px}.facts div{display:flex;gap:8px}
        .facts dt{flex:none;width:120px;color:var(--muted)}.facts dd{margin:0;min-width:0}
        a{color:var(--accent)}
        .more summary{cursor:pointer;color:var(--accent);font-size:13px}
        .timeline{border-collapse:collapse;font-size:12px;width:100%}
        .timeline td{border-top:1px solid var(--line);padding:2px 6px 2px 0;vertical-align:top}
        .timeline td:first-child{white-space:nowrap;color:var(--muted)}
        pre{white-space:pre-wrap;font-size:12px;background:var(--bg);padding:8px;border-radius:8px;margin:4px 0}
        footer{color:var(--muted);font-size:12px;text-align:center;margin-top:16px}
        .empty{color:var(--muted)}
        """
}
