import Foundation
import RichPushCore
import RichPushLibrary
import RichPushReplay
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
}
