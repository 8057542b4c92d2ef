import Foundation
import RichPushCore
import RichPushLibrary
@testable import RichPushReplay
import Testing

/// The HTML report's escaping and image rules; the browser checks are in Tests/EndToEnd/html-report-e2e.py.
@Suite struct HTMLReporterTests {
    static func item(_ result: DeliveryResult, verdict: ReplayItem.Verdict = .unchecked) -> ReplayItem {
        ReplayItem(file: PayloadFile(path: result.file), result: result, verdict: verdict)
    }

    static func render(_ items: [ReplayItem]) -> String {
        HTMLReporter(
            context: ReportContext(generatedAt: Date(timeIntervalSince1970: 0), version: "test"),
            attachmentBytes: AttachmentFile.read
        ).render(
            ReplayReport(items: items, elapsed: 1))
    }

    @Test func payloadTextCannotBecomeMarkup() {
        let result = DeliveryResult(
            file: "x.json", appState: .background, style: .plain,
            content: NotificationContent(
                title: "<script>alert(1)</script>", subtitle: "\"><img src=x onerror=alert(2)>",
                body: "</style>\u{202E}reversed\u{1B}[31m"),
            imageURL: "javascript:alert(3)", hint: "<b>hint</b>")
        let html = Self.render([Self.item(result)])
        #expect(!html.contains("<script>alert"))
        #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(!html.contains("<img src=x"))
        #expect(html.contains("&quot;&gt;&lt;img src=x onerror=alert(2)&gt;"))
        #expect(!html.contains("</style>\u{202E}"))
        #expect(!html.contains("\u{202E}"), "direction overrides are removed")
        #expect(!html.contains("\u{1B}"), "escape sequences are removed")
        #expect(!html.contains("href=\"javascript"), "only https URLs become links")
        #expect(html.contains("&lt;b&gt;hint&lt;/b&gt;"))
    }

    @Test func theReceiptIsAFactAndItsTextIsEscaped() {
        var result = DeliveryResult(file: "r.json", appState: .closed, style: .plain)
        result.receipt = ReceiptReport(
            url: "https://stats.test/r?<x>", pushID: "<b>7</b>\u{202E}", status: 500, error: "HTTP 500",
            completedAfterContentHandler: true)
        let html = Self.render([Self.item(result)])
        #expect(html.contains("<dt>Receipt</dt>"))
        #expect(html.contains("push_id &lt;b&gt;7&lt;/b&gt;: failed: HTTP 500, after the content handler"))
        #expect(html.contains("https://stats.test/r?&lt;x&gt;"))
        #expect(!html.contains("<b>7</b>"))
        #expect(!html.contains("\u{202E}"))
        let none = Self.render([Self.item(DeliveryResult(file: "n.json", appState: .closed, style: .plain))])
        #expect(!none.contains("<dt>Receipt</dt>"))
    }

    @Test func aTeamsExtensionIsAFactWithItsOutputEscaped() {
        var result = DeliveryResult(file: "e.json", appState: .background, style: .plain)
        result.extensionIdentity = ExtensionIdentity(kind: .custom, source: "ext<dir>", principalClass: "Service")
        result.contentHandlerCalls = 2
        result.extensionLog = ["downloading <script>alert(1)</script>\u{1B}[2J"]
        let html = Self.render([Self.item(result)])
        #expect(html.contains("<dt>Your extension</dt>"))
        #expect(html.contains("Service</bdi> from <bdi>ext&lt;dir&gt;</bdi>, content handler called 2 times"))
        #expect(html.contains("downloading &lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(!html.contains("<script>alert") && !html.contains("\u{1B}"))
        let builtin = Self.render([Self.item(DeliveryResult(file: "b.json", appState: .closed, style: .plain))])
        #expect(!builtin.contains("<dt>Your extension</dt>"))
    }

    @Test func onlyHTTPSURLsBecomeLinks() {
        #expect(
            HTMLReporter.link("https://cdn.test/a.png?x=\"y\"").hasPrefix(
                "<a href=\"https://cdn.test/a.png?x=%22y%22\""))
        #expect(!HTMLReporter.link("http://cdn.test/a.png").contains("<a "))
        #expect(!HTMLReporter.link("data:text/html,<b>x</b>").contains("<a "))
        #expect(!HTMLReporter.link("https://cdn.test/a b.png").contains("<a "))
    }

    @Test func theContentSecurityPolicyForbidsScriptsAndLoads() {
        let html = Self.render([])
        #expect(html.contains("http-equiv=\"Content-Security-Policy\""))
        #expect(html.contains("default-src 'none'; img-src data:"))
        #expect(!html.contains("<script"))
        #expect(html.contains("No payloads were replayed."))
    }

    @Test func aRichCardEmbedsTheImageAndAnOversizedOneSaysWhy() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("richpush-html-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let bytes = Data([0x89, 0x50, 0x4E, 0x47, 1, 2, 3, 4])
        let file = folder.appendingPathComponent("a.png")
        try bytes.write(to: file)
        let attachment = Attachment(
            url: "https://cdn.test/a.png", format: .png, width: 2, height: 2, frames: 1, bytes: bytes.count,
            sha256: "00", file: file.path)
        let rich = DeliveryResult(
            file: "rich.json", appState: .closed, style: .rich, content: NotificationContent(title: "R"),
            attachment: attachment)
        let html = Self.render([Self.item(rich, verdict: .passed)])
        #expect(html.contains("src=\"data:image/png;base64,\(bytes.base64EncodedString())\""))
        #expect(html.contains("class=\"card outcome-rich state-closed verdict-pass\""))

        var small = HTMLReporter(attachmentBytes: AttachmentFile.read)
        small.maxEmbeddedImageBytes = 4
        let refused = small.render(ReplayReport(items: [Self.item(rich)], elapsed: 0))
        #expect(!refused.contains("data:image/png"))
        #expect(refused.contains("is not embedded: the report embeds images up to 4 B"))
    }

    @Test func failedExpectationsAndUnreadableFilesAreCards() {
        let plain = DeliveryResult(
            file: "p.json", appState: .foreground, style: .plain, content: NotificationContent(title: "P"),
            fallback: Fallback(.foreground, "app open"))
        let html = Self.render([
            Self.item(plain, verdict: .failed(["style: expected \"rich\", got \"plain\""])),
            ReplayItem(
                file: PayloadFile(path: "gone.json"), result: nil, verdict: .failed(["x"]),
                error: "gone.json: a broken link"),
        ])
        #expect(html.contains("style: expected &quot;rich&quot;, got &quot;plain&quot;"))
        #expect(html.contains("The app was open on screen"))
        #expect(html.contains("class=\"card outcome-error"))
        #expect(html.contains("gone.json: a broken link"))
        #expect(html.components(separatedBy: "<article ").count - 1 == 2)
    }

    // MARK: - The phone

    static let shop = AppCategories(
        appName: "Shop",
        categories: [
            NotificationCategory(
                identifier: "order",
                actions: [
                    NotificationAction(identifier: "track", title: "Track", icon: "shippingbox"),
                    NotificationAction(
                        identifier: "cancel", title: "Cancel order", options: [.destructive, .authenticationRequired]),
                    NotificationAction(
                        identifier: "reply", title: "Reply",
                        textInput: .init(buttonTitle: "Send", placeholder: "Message")),
                    NotificationAction(identifier: "open", title: "Open order", options: [.foreground]),
                ])
        ])

    static let longBody = String(repeating: "The courier expects to deliver on Thursday. ", count: 7)

    /// A delivered plain notification in category `order`, with its presentation under `rules`.
    static func presented(
        title: String = "Your order has shipped", body: String = longBody, file: String = "order.json",
        rules: PresentationRules = .iOS, categories: AppCategories? = shop
    ) -> DeliveryResult {
        var result = DeliveryResult(
            file: file, appState: .background, style: .plain, content: NotificationContent(title: title, body: body))
        result.category = "order"
        result.badge = 2
        result.presentation = NotificationPresentation(of: result, categories: categories, rules: rules)
        return result
    }

    /// The opening tags of the `pv-<view>` figure (dimmed or not), up to its end.
    static func view(_ view: NotificationView, in html: String) -> Substring {
        guard let start = html.range(of: "<figure class=\"pv pv-\(view.rawValue)"),
            let end = html[start.upperBound...].range(of: "</figure>")
        else { return "" }
        return html[start.lowerBound..<end.upperBound]
    }

    static func count(_ needle: String, in text: Substring) -> Int {
        text.components(separatedBy: needle).count - 1
    }

    @Test func eachViewClampsTheBodyToTheModelsLines() throws {
        let result = Self.presented()
        let presentation = try #require(result.presentation)
        let html = Self.render([Self.item(result)])
        for view in presentation.views {
            let drawn = Self.view(view.view, in: html)
            #expect(!drawn.isEmpty, "the \(view.view.label) view is drawn")
            #expect(
                drawn.contains(
                    "class=\"pv-body pv-clamp\" style=\"-webkit-line-clamp:\(view.body.maxLines)\" data-max-lines=\"\(view.body.maxLines)\""
                ), "\(view.view.label): clamp of \(view.body.maxLines)")
            #expect(drawn.contains("class=\"pv-title pv-one\" data-max-lines=\"1\""), "the title on one line")
            // The full text, for the browser to cut.
            #expect(drawn.contains(HTMLReporter.escape(Self.longBody)))
        }
    }

    @Test func theBannerHasTheModelsTwoButtonsAndTheExpandedViewAllFour() throws {
        let result = Self.presented()
        let presentation = try #require(result.presentation)
        let html = Self.render([Self.item(result)])
        for view in presentation.views {
            let drawn = Self.view(view.view, in: html)
            #expect(Self.count("<button type=\"button\"", in: drawn) == view.actions.count, "\(view.view.label)")
        }
        #expect(presentation.view(.banner)?.actions.count == 2)
        let banner = Self.view(.banner, in: html)
        #expect(banner.contains("data-action=\"track\"") && banner.contains("data-action=\"cancel\""))
        #expect(!banner.contains("data-action=\"reply\""))
        #expect(banner.contains("2 actions not shown here (long-press)"))
        let expanded = Self.view(.expanded, in: html)
        #expect(Self.count("<button type=\"button\"", in: expanded) == 4)
        #expect(Self.count("class=\"pv-action destructive\"", in: expanded) == 1)
        #expect(expanded.contains("class=\"pv-action destructive\" data-action=\"cancel\""))
        #expect(expanded.contains("<span class=\"pv-placeholder\" dir=\"auto\">Message</span>"))
        #expect(expanded.contains("<span class=\"pv-send\" dir=\"auto\">Send</span>"))
        #expect(expanded.contains("<span class=\"pv-symbol\">shippingbox</span>"))
        #expect(Self.count("<button type=\"button\"", in: Self.view(.lockScreen, in: html)) == 0)
        // The labels: app name, timestamp, badge, approximate with the model's words.
        #expect(banner.contains("<span class=\"pv-app\" dir=\"auto\">Shop</span>"))
        #expect(banner.contains("<span class=\"pv-time\">now</span>"))
        #expect(banner.contains("<span class=\"pv-badge\" title=\"badge\">2</span>"))
        #expect(banner.contains("title=\"\(HTMLReporter.escape(presentation.approximation))\">approximate</span>"))
    }

    @Test func aChangedRuleChangesTheClamp() throws {
        var rules = PresentationRules.iOS
        rules.bodyLines[.lockScreen] = 3
        rules.actions[.banner] = 1
        let result = Self.presented(rules: rules)
        let html = Self.render([Self.item(result)])
        let lockScreen = Self.view(.lockScreen, in: html)
        #expect(lockScreen.contains("-webkit-line-clamp:3\" data-max-lines=\"3\""))
        #expect(!lockScreen.contains("-webkit-line-clamp:4"))
        #expect(Self.count("<button type=\"button\"", in: Self.view(.banner, in: html)) == 1)
        // Unchanged rules stay.
        #expect(Self.view(.expanded, in: html).contains("-webkit-line-clamp:7"))
    }

    @Test func payloadMarkupIsEscapedInEveryView() throws {
        let result = Self.presented(
            title: "<script>alert(1)</script>", body: "<img src=x onerror=alert(2)> \u{202E}end",
            file: "<b>.json")
        let presentation = try #require(result.presentation)
        let html = Self.render([Self.item(result)])
        #expect(!html.contains("<script>alert"))
        #expect(!html.contains("<img src=x"))
        #expect(!html.contains("\u{202E}"))
        for view in presentation.views {
            let drawn = Self.view(view.view, in: html)
            #expect(drawn.contains("&lt;script&gt;alert(1)&lt;/script&gt;"), "\(view.view.label)")
            #expect(drawn.contains("&lt;img src=x onerror=alert(2)&gt;"), "\(view.view.label)")
        }
        for page in HTMLReporter().screenshotPages(ReplayReport(items: [Self.item(result)], elapsed: 0)) {
            #expect(!page.html.contains("<script"), "\(page.fileName)")
            #expect(page.html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"), "\(page.fileName)")
            #expect(page.fileName.hasPrefix("_b_."), "\(page.fileName)")
        }
    }

    @Test func anUnregisteredCategoryShowsTheNoteAndNoButtons() {
        let result = Self.presented(categories: AppCategories(categories: []))
        let html = Self.render([Self.item(result)])
        #expect(html.contains("<li><bdi>category order is not registered by the app: no buttons</bdi></li>"))
        #expect(!html.contains("class=\"pv-action"))
    }

    @Test func theThumbnailIsCroppedAsTheModelSays() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("richpush-html-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let bytes = Data([0x89, 0x50, 0x4E, 0x47, 1, 2, 3, 4])
        let file = folder.appendingPathComponent("a.png")
        try bytes.write(to: file)
        var result = Self.presented()
        result.style = .rich
        result.attachment = Attachment(
            url: "https://cdn.test/a.png", format: .png, width: 400, height: 200, frames: 1, bytes: bytes.count,
            sha256: "00", file: file.path)
        var presentation = try #require(NotificationPresentation(of: result, categories: Self.shop))
        result.presentation = presentation
        // No crop: the centred square of the 400x200 image covers the 40 px square (scale 0.2).
        #expect(
            Self.view(.banner, in: Self.render([Self.item(result)])).contains(
                "background-size:80px 40px;background-position:-20px 0px"))
        for index in presentation.views.indices where presentation.views[index].thumbnail != nil {
            presentation.views[index].thumbnail?.crop = UnitRect(x: 0.5, y: 0, width: 0.25, height: 0.5)
        }
        result.presentation = presentation
        let html = Self.render([Self.item(result)])
        // The crop (100x100 px of a 400x200 image at x 200) covers the 40 px square: scale 0.4.
        let lockScreen = Self.view(.lockScreen, in: html)
        #expect(lockScreen.contains("background-size:160px 80px;background-position:-80px 0px"))
        #expect(lockScreen.contains("data-crop=\"0.5,0.0,0.25,0.5\""))
        // The bytes once, in the card's image and the card's style (shared by the three views).
        #expect(html.components(separatedBy: bytes.base64EncodedString()).count - 1 == 2)
        #expect(Self.view(.expanded, in: html).contains("class=\"pv-picture m0-0\""))
    }

    @Test func videoAndAudioPlayFromTheReportWithinItsBudget() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("richpush-html-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let poster = folder.appendingPathComponent("poster.png")
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Self.pngHeader(width: 2, height: 1)).write(
            to: poster)
        let video = folder.appendingPathComponent("clip.mp4")
        let videoBytes = Data([0, 0, 0, 0x18] + Array("ftypisom".utf8) + [UInt8](repeating: 7, count: 20))
        try videoBytes.write(to: video)
        let audio = folder.appendingPathComponent("sound.wav")
        let audioBytes = Data(Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WAVEfmt ".utf8))
        try audioBytes.write(to: audio)

        func result(_ media: PresentedMedia) -> DeliveryResult {
            var result = Self.presented()
            result.presentation?.views[2].media = media
            return result
        }
        let clip = PresentedMedia(
            kind: .video, file: poster.path, width: 1280, height: 720, duration: 12.4, source: video.path)
        let sound = PresentedMedia(kind: .audio, file: nil, width: 0, height: 0, duration: 75, source: audio.path)
        let reporter = HTMLReporter(fileBytes: SafeFileReader.read)
        let html = reporter.render(
            ReplayReport(items: [Self.item(result(clip)), Self.item(result(sound))], elapsed: 0))
        #expect(html.contains("media-src data:"))
        #expect(
            html.contains(
                "<video controls preload=\"metadata\" playsinline style=\"aspect-ratio:1280/720\" poster=\"data:image/png;base64,"
            ))
        #expect(html.contains("src=\"data:video/mp4;base64,\(videoBytes.base64EncodedString())\"></video>"))
        #expect(html.contains("<span class=\"pv-duration\">0:12</span>"))
        #expect(
            html.contains(
                "<audio controls preload=\"metadata\" src=\"data:audio/wav;base64,\(audioBytes.base64EncodedString())\"></audio>"
            ))
        #expect(html.contains("<span class=\"pv-duration\">1:15</span>"))
        // An audio thumbnail (no picture) is its symbol, not a missing image.
        var withThumbnail = result(sound)
        withThumbnail.presentation?.views[0].thumbnail = sound
        let lockScreen = Self.view(
            .lockScreen, in: reporter.render(ReplayReport(items: [Self.item(withThumbnail)], elapsed: 0)))
        #expect(
            lockScreen.contains("<div class=\"pv-thumb missing\" role=\"img\" aria-label=\"audio thumbnail\">♪</div>"))

        var small = reporter
        small.maxEmbeddedMediaBytes = 8
        let refused = small.render(ReplayReport(items: [Self.item(result(clip))], elapsed: 0))
        #expect(!refused.contains("<video"))
        #expect(!refused.contains("data:video/mp4"))
        #expect(refused.contains("aria-label=\"poster frame\""))
        #expect(refused.contains("The video (32 B) is not embedded: the report embeds audio and video up to 8 B."))
        #expect(refused.contains("<span class=\"pv-duration\">0:12</span>"))
    }

    /// An IHDR chunk (no valid CRC needed by the inspector's header read).
    static func pngHeader(width: UInt32, height: UInt32) -> [UInt8] {
        func be(_ value: UInt32) -> [UInt8] { [24, 16, 8, 0].map { UInt8((value >> $0) & 0xFF) } }
        return be(13) + Array("IHDR".utf8) + be(width) + be(height) + [8, 6, 0, 0, 0] + [0, 0, 0, 0]
    }

    /// Four results, three of thread "orders", presented on `device`.
    static func threadOfThree(on device: DeviceState = .newPhone) -> [ReplayItem] {
        ["First", "Second", "Third", "Alone"].enumerated().map { index, title in
            var result = Self.presented(title: title, file: "\(index).json")
            if title != "Alone" { result.threadID = "orders" }
            return Self.item(Self.presented(result, on: device))
        }
    }

    @Test func aThreadIsStackedWithNMore() {
        let html = Self.render(Self.threadOfThree())
        #expect(html.components(separatedBy: "<section class=\"thread-stack\"").count - 1 == 1)
        #expect(html.contains("<a href=\"#n0\">2 more</a>"))
        #expect(html.contains("<li><a href=\"#n2\"><bdi>Third</bdi></a></li>"))
        #expect(html.components(separatedBy: "<article ").count - 1 == 4, "every card is still there")
    }

    @Test func groupingByAppStacksEveryNotificationAndOffStacksNone() {
        var device = DeviceState.newPhone
        device.grouping = .byApp
        let byApp = Self.render(Self.threadOfThree(on: device))
        #expect(byApp.components(separatedBy: "<section class=\"thread-stack\"").count - 1 == 1)
        #expect(byApp.contains("The app's notifications (grouped by app) on the lock screen: 4 notifications"))
        #expect(byApp.contains("<a href=\"#n0\">3 more</a>"))
        device.grouping = .off
        let off = Self.render(Self.threadOfThree(on: device))
        #expect(!off.contains("<section class=\"thread-stack\""))
    }

    @Test func aLockScreenShowingACountDrawsTheCountNotTheStack() {
        var device = DeviceState.newPhone
        device.lockScreen = .count
        let html = Self.render(Self.threadOfThree(on: device))
        #expect(html.contains("<p class=\"ts-count\">3 Notifications</p>"))
        #expect(!html.contains("class=\"ts-sheet"))
        device.lockScreen = .list
        let list = Self.render(Self.threadOfThree(on: device))
        #expect(list.contains("<div class=\"ts-stack ts-open\">") && !list.contains("class=\"ts-sheet"))
    }

    @Test func screenshotPagesAreOnePerViewAndSchemeNamedForThePayload() {
        let result = Self.presented(file: "payloads/presentation/order long.json")
        let again = Self.presented(file: "other/order long.json")
        let pages = HTMLReporter().screenshotPages(
            ReplayReport(items: [Self.item(result), Self.item(again)], elapsed: 0))
        #expect(
            pages.map(\.fileName) == [
                "order_long.lockScreen.png", "order_long.lockScreen-dark.png", "order_long.banner.png",
                "order_long.banner-dark.png", "order_long.expanded.png", "order_long.expanded-dark.png",
                "order_long-2.lockScreen.png", "order_long-2.lockScreen-dark.png", "order_long-2.banner.png",
                "order_long-2.banner-dark.png", "order_long-2.expanded.png", "order_long-2.expanded-dark.png",
            ])
        #expect(pages.allSatisfy { $0.width == 390 && $0.height > 100 })
        #expect(pages[1].html.contains("<html lang=\"en\" class=\"shot dark\">"))
        #expect(pages[0].html.contains("<html lang=\"en\" class=\"shot light\">"))
        #expect(pages[0].html.components(separatedBy: "<figure ").count - 1 == 1)
        #expect(HTMLReporter.safeFileName("../../.hidden.json") == "_hidden")
        #expect(HTMLReporter.safeFileName("注文.apns") == "notification")
        #expect(HTMLReporter.safeFileName("a/b/c.d.json") == "c.d")
    }

    // MARK: - How it reached the person

    /// `result` delivered on a phone in `device`.
    static func presented(_ result: DeliveryResult, on device: DeviceState) -> DeliveryResult {
        var result = result
        result.presentation = NotificationPresentation(of: result, categories: shop, device: device)
        return result
    }

    @Test func aNotificationHeldByFocusHasItsBannerDimmedWithWhy() throws {
        var device = DeviceState.newPhone
        device.focus = .on
        let result = Self.presented(Self.presented(), on: device)
        let delivery = try #require(result.presentation?.delivery)
        #expect(delivery.kind == .heldByFocus)
        let html = Self.render([Self.item(result)])
        let banner = Self.view(.banner, in: html)
        #expect(banner.hasPrefix("<figure class=\"pv pv-banner pv-dimmed\""))
        #expect(banner.contains("<span class=\"pv-not-shown\">not shown: held by Focus</span>"))
        // The Notification Center row is what the person gets, and its long-press.
        for view in [NotificationView.lockScreen, .expanded] {
            let figure = Self.view(view, in: html)
            #expect(!figure.isEmpty && !figure.contains("pv-dimmed"), "\(view) is shown")
        }
        #expect(html.contains("<b>Delivered:</b> <span class=\"dl-kind\">held by Focus</span> — <bdi>the Focus"))
        // Unlocked without a Focus, every view is there.
        let shown = Self.render([Self.item(Self.presented(Self.presented(), on: .newPhone))])
        #expect(!shown.contains(" pv-dimmed\"") && !shown.contains("<span class=\"pv-not-shown\">"))
    }

    /// A presented result whose delivery is `delivery`, as the model would have it.
    static func delivered(
        _ delivery: PresentedDelivery, title: String = "Your order has shipped", file: String = "order.json",
        relevance: Double? = nil
    ) -> DeliveryResult {
        var result = Self.presented(title: title, file: file)
        result.relevanceScore = relevance
        result.presentation?.delivery = delivery
        return result
    }

    static func delivery(
        _ kind: PresentedDelivery.Kind, level: HostContent.InterruptionLevel = .active, reason: String = "because",
        breaksThrough: [PresentedDelivery.Barrier: String] = [:], shownIn: [NotificationView] = [.lockScreen]
    ) -> PresentedDelivery {
        PresentedDelivery(
            kind: kind, reason: reason, level: level, screenLit: true, screenReason: "lit", sound: false,
            soundReason: "no sound asked", breaksThrough: breaksThrough, shownIn: shownIn)
    }

    @Test func whatItBrokeThroughIsABadgeNamingTheRuleAndTheLevelIsLabelled() {
        let rule = "time-sensitive breaks through Focus (HIG, Managing notifications)"
        let html = Self.render([
            Self.item(
                Self.delivered(
                    Self.delivery(
                        .immediate, level: .timeSensitive, breaksThrough: [.focus: rule],
                        shownIn: [.banner, .lockScreen])))
        ])
        #expect(html.contains("<li class=\"dl-break break-focus\">broke through Focus: <bdi>\(rule)</bdi></li>"))
        #expect(!html.contains("break-summary") && !html.contains("break-silent"))
        #expect(Self.count("<span class=\"pv-level time-sensitive\">Time Sensitive</span>", in: html[...]) == 3)
        let critical = Self.render([
            Self.item(Self.delivered(Self.delivery(.immediate, level: .critical, shownIn: [.lockScreen])))
        ])
        #expect(Self.count("<span class=\"pv-level critical\">Critical</span>", in: critical[...]) == 3)
        #expect(!critical.contains("<ul class=\"dl-breaks\">"), "nothing broken through, no badges")
    }

    @Test func theDeliveryTextIsEscaped() {
        var result = Self.delivered(
            Self.delivery(
                .heldByFocus, reason: "<script>alert(1)</script>\u{202E}",
                breaksThrough: [.silent: "<img src=x onerror=alert(2)>"]))
        result.presentation?.delivery?.screenReason = "\"><b>screen</b>"
        result.presentation?.delivery?.soundReason = "<i>sound</i>"
        result.presentation?.previewsHidden = "<u>previews</u>"
        let html = Self.render([Self.item(result)])
        #expect(!html.contains("<script>alert") && !html.contains("<img src=x") && !html.contains("\u{202E}"))
        #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(html.contains("broke through silent: <bdi>&lt;img src=x onerror=alert(2)&gt;</bdi>"))
        #expect(html.contains("&quot;&gt;&lt;b&gt;screen&lt;/b&gt;") && !html.contains("<b>screen</b>"))
        #expect(html.contains("&lt;i&gt;sound&lt;/i&gt;") && !html.contains("<i>sound</i>"))
        #expect(html.contains("Previews hidden: <bdi>&lt;u&gt;previews&lt;/u&gt;</bdi>"))
    }

    @Test func theScheduledSummaryIsOrderedByRelevanceWithTheHighestFeatured() throws {
        let summary = Self.delivery(.scheduledSummary, shownIn: [])
        let html = Self.render([
            Self.item(Self.delivered(summary, title: "Low", file: "low.json", relevance: 0.2)),
            Self.item(Self.delivered(Self.delivery(.immediate), title: "Now", file: "now.json", relevance: 1)),
            Self.item(Self.delivered(summary, title: "Tie <a>", file: "tie.json", relevance: 0.5)),
            Self.item(Self.delivered(summary, title: "High", file: "high.json", relevance: 0.9)),
            Self.item(Self.delivered(summary, title: "Tie two", file: "tie2.json", relevance: 0.5)),
            Self.item(Self.delivered(Self.delivery(.heldByFocus), title: "Held", file: "held.json", relevance: 1)),
            Self.item(Self.delivered(summary, title: "None", file: "none.json")),
        ])
        let start = try #require(html.range(of: "<section class=\"ss-card\""))
        let end = try #require(html[start.upperBound...].range(of: "</section>"))
        let card = html[start.lowerBound..<end.upperBound]
        let links = card.components(separatedBy: "<a href=\"#n").dropFirst().map { $0.prefix { $0 != "\"" } }
        #expect(links == ["3", "2", "4", "0", "6"], "by relevance, ties in file order, no score last")
        #expect(
            card.contains("<li class=\"ss-item featured\" data-card=\"n3\"><span class=\"ss-mark\">Featured</span>"))
        #expect(Self.count("class=\"ss-item featured\"", in: card) == 1)
        #expect(!card.contains("Now") && !card.contains("Held"), "only notifications waiting for the summary")
        #expect(card.contains("<bdi>Tie &lt;a&gt;</bdi>"))
        let none = Self.render([Self.item(Self.delivered(Self.delivery(.immediate)))])
        #expect(!none.contains("<section class=\"ss-card\""), "no summary card when nothing waits for it")
    }

    @Test func theDeviceMatrixPageHasATablePerPayloadWithTheReasonsAsTooltips() {
        let columns = DeviceMatrix.columns(over: .newPhone).map {
            ReplayMatrix.Column(setting: .device(name: $0.name, $0.state))
        }
        let cells = columns.map { column in
            let kind: PresentedDelivery.Kind = column.name == "focus" ? .heldByFocus : .quiet
            return ReplayMatrix.Cell(
                column: column,
                result: Self.delivered(Self.delivery(kind, reason: "why <\(column.name)>"), file: "p.json"),
                verdict: .unchecked)
        }
        let matrix = ReplayMatrix(
            axis: .device, columns: columns, rows: [.init(file: PayloadFile(path: "p.json"), cells: cells)], elapsed: 1)
        let html = HTMLReporter(context: ReportContext(generatedAt: Date(timeIntervalSince1970: 0), version: "test"))
            .render(matrix)
        #expect(html.contains("<h1>richpush device matrix</h1>"))
        #expect(html.contains("http-equiv=\"Content-Security-Policy\"") && !html.contains("<script"))
        #expect(Self.count("<table class=\"dm-table\">", in: html[...]) == 1)
        #expect(Self.count("<th scope=\"col\">", in: html[...]) == 6)
        #expect(
            html.contains(
                "<td class=\"dm-held\" data-state=\"focus\" title=\"why &lt;focus&gt;\">held by Focus</td>"))
        #expect(html.contains("<td class=\"dm-quiet\" data-state=\"night\" title=\"why &lt;night&gt;\">quiet</td>"))
    }
}
