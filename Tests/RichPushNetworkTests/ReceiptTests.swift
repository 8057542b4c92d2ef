import Foundation
import Logging
import NIOHTTP1
import RichPushCore
import RichPushNetwork
import Testing

/// Display receipts over real HTTPS: the real sender against the fixture CDN's `POST /receipts`, and the emulated
/// iPhone sending them beside the real image download.
@Suite("Display receipts against the fixture CDN")
struct ReceiptTests {
    static let articlePayload = #"""
        {"aps": {"alert": {"push_id": "2018001", "title": "新文章推荐给您", "body": "立即查看",
          "image": "https://fixtures.richpush.test/cat.png"}, "mutable-content": 1, "sound": "default", "badge": 0}}
        """#
    static let articleWithoutImage = #"""
        {"aps": {"alert": {"push_id": "2018002", "title": "新文章推荐给您", "body": "立即查看"}, "mutable-content": 1}}
        """#

    /// Runs `body` with the fixture CDN, the real downloader and a real receipt sender mapped to it.
    func withSender<T>(_ body: (Harness, HTTPSReceiptSender) async throws -> T) async throws -> T {
        try await withHarness { harness in
            let sender = try HTTPSReceiptSender(
                fixtureHost: harness.cdn.hostMapping, logger: quietLogger, timeout: .seconds(60))
            do {
                let result = try await body(harness, sender)
                await sender.shutdown()
                return result
            } catch {
                await sender.shutdown()
                throw error
            }
        }
    }

    func system(_ harness: Harness, _ sender: HTTPSReceiptSender, receipt query: String) -> NotificationSystem {
        NotificationSystem(
            downloader: harness.downloader,
            configuration: DeliveryConfiguration(
                downloadTimeout: .seconds(60), imagePolicy: .blueprint(adding: ["aps.alert.image"]),
                receiptURL: harness.url("receipts\(query)")),
            logger: quietLogger, receiptSender: sender)
    }

    @Test("the CDN receives push_id=<id> form-encoded, with the Content-Type and the User-Agent naming richpush")
    func bodyAndHeadersAsReceived() async throws {
        try await withSender { harness, sender in
            let status = try await sender.send(DisplayReceipt(url: harness.url("receipts"), pushID: "2018 001&x=ü"))
            #expect(status == 200)
            let received = harness.cdn.receipts.all
            try #require(received.count == 1)
            let entry = received[0]
            #expect(entry.method == "POST")
            #expect(entry.target == "/receipts")
            #expect(entry.bodyText == "push_id=2018+001%26x%3D%C3%BC")
            #expect(entry.header("Content-Type") == "application/x-www-form-urlencoded")
            #expect(entry.header("User-Agent") == "richpush/\(RichPushVersion.current)")
            #expect(entry.header("Host") == FixtureCDN.host)
            #expect(entry.header("Content-Length") == "\(entry.body.count)")
        }
    }

    @Test("the article's payload: aps.alert.push_id is found and reported, the image is shown")
    func articlePayloadEndToEnd() async throws {
        try await withSender { harness, sender in
            let result = await system(harness, sender, receipt: "").deliver(
                .file("article.json", bytes: Array(Self.articlePayload.utf8), appState: .background))
            #expect(result.pushID == "2018001")
            #expect(result.style == .rich)
            #expect(result.receipt?.status == 200)
            #expect(result.receipt?.error == nil)
            #expect(result.receipt?.url == "https://fixtures.richpush.test/receipts")
            #expect(harness.cdn.receipts.all.map(\.bodyText) == ["push_id=2018001"])
            #expect(result.timeline.map(\.kind).contains(.receiptSent))
            #expect(result.timeline.map(\.kind).contains(.receiptFinished))
        }
    }

    @Test("a delayed receipt on a payload without image ends after the content handler, with the hint")
    func delayedReceiptAfterTheHandler() async throws {
        try await withSender { harness, sender in
            let result = await system(harness, sender, receipt: "?delay=1s").deliver(
                .file("late.json", bytes: Array(Self.articleWithoutImage.utf8), appState: .closed))
            let receipt = try #require(result.receipt)
            #expect(receipt.status == 200)
            #expect(receipt.completedAfterContentHandler)
            #expect(result.jsonValue["receipt"]?["completedAfterContentHandler"] == true)
            #expect(result.hint?.contains("may never reach the server") == true)
            #expect(result.hint?.contains("Await the receipt before calling the content handler") == true)
            let kinds = result.timeline.map(\.kind)
            let handler = try #require(kinds.firstIndex(of: .contentHandlerCalled))
            let finished = try #require(kinds.firstIndex(of: .receiptFinished))
            #expect(handler < finished)
            #expect(harness.cdn.receipts.all.map(\.bodyText) == ["push_id=2018002"])
        }
    }

    @Test("a receipt answered with 500 leaves the notification as it is without a receipt")
    func failingReceiptChangesNothing() async throws {
        try await withSender { harness, sender in
            let failing = await system(harness, sender, receipt: "?status=500").deliver(
                .file("a.json", bytes: Array(Self.articlePayload.utf8), appState: .background))
            var plainConfiguration = system(harness, sender, receipt: "").configuration
            plainConfiguration.receiptURL = nil
            let plain = await NotificationSystem(
                downloader: harness.downloader, configuration: plainConfiguration, logger: quietLogger
            ).deliver(.file("a.json", bytes: Array(Self.articlePayload.utf8), appState: .background))
            #expect(failing.receipt?.status == 500)
            #expect(failing.receipt?.error == "HTTP 500")
            #expect(failing.timeline.map(\.kind).contains(.receiptFailed))
            #expect(plain.receipt == nil)
            #expect(failing.style == .rich)
            #expect(failing.style == plain.style)
            #expect(failing.content == plain.content)
            #expect(failing.fallback == plain.fallback)
            #expect(failing.attachment?.sha256 == plain.attachment?.sha256)
            #expect(harness.cdn.receipts.all.count == 1, "the CDN received the failing receipt")
        }
    }

    @Test("the receipts endpoint takes POST only, delay and status only")
    func endpointRules() async throws {
        try await withSender { harness, sender in
            for method in [HTTPMethod.GET, .PUT, .OPTIONS] {
                let refused = try await fetchRaw(harness.cdn, "/receipts", method: method)
                #expect(refused.status == 405 && refused.header("Allow") == "POST", "\(method): \(refused.status)")
            }
            // A file takes GET and HEAD; a 405 says so (RFC 9110 asks every 405 for its Allow).
            let posted = try await fetchRaw(harness.cdn, "/cat.png", method: .POST)
            #expect(posted.status == 405 && posted.header("Allow") == "GET, HEAD", "\(posted.status)")
            let typed = try await sender.send(DisplayReceipt(url: harness.url("receipts?type=text/html"), pushID: "1"))
            #expect(typed == 400)
            let typo = try await sender.send(DisplayReceipt(url: harness.url("receipts?dealy=1s"), pushID: "1"))
            #expect(typo == 400)
            let noContent = try await sender.send(DisplayReceipt(url: harness.url("receipts?status=204"), pushID: "1"))
            #expect(noContent == 204)
            #expect(harness.cdn.receipts.all.count == 1, "refused requests are not recorded as receipts")
        }
    }

    @Test("without the fixture CDN, or over http, nothing is sent and the failure says why")
    func refusals() async throws {
        let sender = try HTTPSReceiptSender(logger: quietLogger)
        await #expect(
            throws: ReceiptFailure(
                "\(FixtureCDN.host) is served by the embedded fixture CDN, which is not running; nothing was sent")
        ) {
            try await sender.send(
                DisplayReceipt(url: URL(string: "https://fixtures.richpush.test/receipts")!, pushID: "1"))
        }
        await #expect(
            throws: ReceiptFailure("refused before connecting: only https receipts are sent (App Transport Security)")
        ) {
            try await sender.send(DisplayReceipt(url: URL(string: "http://127.0.0.1:9/receipts")!, pushID: "1"))
        }
        await sender.shutdown()
    }

    @Test("a local server given as an additional host (as serve would be) is trusted through its own CA only")
    func additionalHost() async throws {
        try await withHarness { harness in
            let mapped = try HTTPSReceiptSender(
                additionalHosts: [harness.cdn.hostMapping], logger: quietLogger, timeout: .seconds(60))
            let status = try await mapped.send(DisplayReceipt(url: harness.url("receipts"), pushID: "9"))
            await mapped.shutdown()
            #expect(status == 200)
            #expect(harness.cdn.receipts.all.map(\.bodyText) == ["push_id=9"])

            // The same server under a CA the sender was not given is refused by TLS verification.
            let other = try await FixtureCDN.start(root: fixturesRoot, logger: quietLogger)
            var wrongCA = harness.cdn.hostMapping
            wrongCA.caCertificatePEM = other.caCertificatePEM
            let untrusting = try HTTPSReceiptSender(
                additionalHosts: [wrongCA], logger: quietLogger, timeout: .seconds(60))
            await #expect(throws: ReceiptFailure.self) {
                try await untrusting.send(DisplayReceipt(url: harness.url("receipts"), pushID: "10"))
            }
            await untrusting.shutdown()
            await other.shutdown()
            #expect(harness.cdn.receipts.all.count == 1, "nothing reached the server without a verified TLS session")
        }
    }
}
