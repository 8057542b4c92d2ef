import Clocks
import Foundation
import RichPushCore
import Synchronization
import Testing

/// A receipt sender double whose answer each test scripts; it keeps every receipt it was given.
struct ScriptedReceiptSender: ReceiptSending {
    var script: @Sendable (DisplayReceipt) async throws -> Int
    let sent = SentReceipts()

    func send(_ receipt: DisplayReceipt) async throws -> Int {
        sent.append(receipt)
        return try await script(receipt)
    }

    /// Answers `status` after `delay` on the injected clock.
    static func answering(_ status: Int, after delay: Duration, on clock: ArmedTestClock) -> ScriptedReceiptSender {
        ScriptedReceiptSender { _ in
            try await clock.sleep(for: delay)
            return status
        }
    }
}

final class SentReceipts: Sendable {
    private let receipts = Mutex<[DisplayReceipt]>([])
    func append(_ receipt: DisplayReceipt) { receipts.withLock { $0.append(receipt) } }
    var all: [DisplayReceipt] { receipts.withLock { $0 } }
}

/// The events a delivery reported so far, for tests that move the clock only after a step was recorded.
final class HeardEvents: Sendable {
    private let events = Mutex<[TimelineEvent.Kind]>([])
    func hear(_ progress: DeliveryProgress) {
        if case .event(let event) = progress { events.withLock { $0.append(event.kind) } }
    }
    func contains(_ kind: TimelineEvent.Kind) -> Bool { events.withLock { $0.contains(kind) } }
}

/// Waits (in real time, at most 30 s) until `condition` holds; false if it never did.
func eventually(_ condition: @Sendable () -> Bool) async -> Bool {
    let start = ContinuousClock.now
    while !condition() {
        // Generous, and sleeping between looks: a full parallel test run on two cores once took longer than 10 s of
        // spinning with Task.yield, which itself kept a thread of the cooperative pool busy.
        if ContinuousClock.now - start > .seconds(30) { return false }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return true
}

/// Display receipts (the extension's `POST push_id=<id>` to a statistics API): sent beside the work, never
/// delaying the content handler, bounded by the budget, and never changing what the phone shows.
@Suite struct DisplayReceiptTests {
    static let receiptURL = URL(string: "https://stats.example.com/receipts")!

    /// The seed article's payload shape: the push id under `aps.alert`.
    static func articlePayload(image: Bool) -> String {
        #"""
        {"aps": {"alert": {"push_id": "2018001", "title": "新文章推荐给您", "body": "立即查看"},
         "mutable-content": 1, "sound": "default", "badge": 0}\#(image ? #", "fcm_options": {"image": "https://fixtures.richpush.test/cat.png"}"# : "")}
        """#
    }

    static func system(
        clock: ArmedTestClock, downloader: any ImageDownloading = ScriptedDownloader.succeeding(),
        sender: any ReceiptSending, budget: Duration = .seconds(30), receiptURL: URL? = receiptURL
    ) -> NotificationSystem {
        NotificationSystem(
            downloader: downloader, clock: clock,
            configuration: DeliveryConfiguration(extensionBudget: budget, receiptURL: receiptURL),
            receiptSender: sender)
    }

    @Test func aReceiptStillInFlightWhenTheHandlerIsCalledIsReportedWithTheHint() async throws {
        let clock = ArmedTestClock()
        let sender = ScriptedReceiptSender.answering(200, after: .milliseconds(1500), on: clock)
        let system = Self.system(clock: clock, sender: sender)
        // The budget timer and the receipt are the only sleeps: no image, so the handler is called at once.
        let result = await driving(clock, armed: 2) {
            await system.deliver(
                .file("article.json", bytes: payload(Self.articlePayload(image: false)), appState: .background))
        }
        #expect(sender.sent.all == [DisplayReceipt(url: Self.receiptURL, pushID: "2018001")])
        #expect(result.pushID == "2018001", "aps.alert.push_id is where the article puts it")
        #expect(result.style == .plain)
        #expect(result.fallback == nil)
        #expect(
            result.events == [
                .received, .extensionStarted, .receiptSent, .contentHandlerCalled, .presented, .receiptFinished,
            ])
        #expect(result.time(of: .contentHandlerCalled) == 0, "the receipt does not delay the content handler")
        #expect(result.time(of: .receiptFinished) == 1.5)
        #expect(result.elapsed == 0, "elapsed runs to the presentation, not to the end of the receipt")
        let receipt = try #require(result.receipt)
        #expect(
            receipt
                == ReceiptReport(
                    url: "https://stats.example.com/receipts", pushID: "2018001", status: 200, error: nil,
                    completedAfterContentHandler: true))
        let hint = try #require(result.hint)
        #expect(hint.contains("may never reach the server"))
        #expect(hint.contains("Await the receipt before calling the content handler"))
        let json = try #require(result.jsonValue["receipt"])
        #expect(json["url"] == "https://stats.example.com/receipts")
        #expect(json["pushID"] == "2018001")
        #expect(json["status"] == 200)
        #expect(json["error"] == .null)
        #expect(json["completedAfterContentHandler"] == true)
        #expect(
            result.timeline.first { $0.kind == .receiptSent }?.detail.hasPrefix("push_id=2018001 to https://") == true)
    }

    @Test func aReceiptAnsweredBeforeTheImageIsInTimeWithoutAHint() async throws {
        let clock = ArmedTestClock()
        let heard = HeardEvents()
        let downloader = ScriptedDownloader { url, limits, events in
            try await clock.sleep(for: .seconds(2))
            return try await ScriptedDownloader.succeeding().download(url, limits: limits, events: events)
        }
        let sender = ScriptedReceiptSender { _ in 204 }
        let system = Self.system(clock: clock, downloader: downloader, sender: sender)
        let task = Task {
            await system.deliver(
                .file("article.json", bytes: payload(Self.articlePayload(image: true)), appState: .closed),
                observer: heard.hear)
        }
        // Time moves only once the receipt's answer is recorded and the budget, the download deadline and the
        // download itself are waiting.
        #expect(await eventually { heard.contains(.receiptFinished) && clock.isArmed(3) })
        await clock.inner.advance(by: .seconds(2))
        let result = await task.value
        #expect(result.style == .rich)
        #expect(result.receipt?.status == 204)
        #expect(result.receipt?.completedAfterContentHandler == false)
        #expect(result.hint == nil)
        #expect(result.time(of: .receiptFinished) == 0)
        #expect(result.time(of: .contentHandlerCalled) == 2)
        #expect(result.timeline.first { $0.kind == .receiptFinished }?.detail == "HTTP 204, before the content handler")
    }

    @Test(arguments: [500, -1])
    func aFailingReceiptLeavesTheNotificationUnchanged(status: Int) async throws {
        let sender = ScriptedReceiptSender { _ in
            if status < 0 { throw ReceiptFailure("could not connect to stats.example.com:443: Connection refused") }
            return status
        }
        let without = await NotificationSystem(downloader: ScriptedDownloader.succeeding()).deliver(
            .file("a.json", bytes: payload(Self.articlePayload(image: true)), appState: .background))
        let with = await Self.system(clock: ArmedTestClock(), sender: sender).deliver(
            .file("a.json", bytes: payload(Self.articlePayload(image: true)), appState: .background))
        #expect(with.style == .rich)
        #expect(with.style == without.style)
        #expect(with.content == without.content)
        #expect(with.fallback == without.fallback)
        #expect(with.attachment?.format == without.attachment?.format)
        #expect(with.attachment?.width == without.attachment?.width)
        #expect(with.events.contains(.receiptFailed))
        #expect(!with.events.contains(.receiptFinished))
        let receipt = try #require(with.receipt)
        if status < 0 {
            #expect(receipt.status == nil)
            #expect(receipt.error == "could not connect to stats.example.com:443: Connection refused")
        } else {
            #expect(receipt.status == 500)
            #expect(receipt.error == "HTTP 500")
        }
    }

    @Test func theBudgetCancelsAReceiptStillInFlight() async throws {
        let clock = ArmedTestClock()
        let sender = ScriptedReceiptSender.answering(200, after: .seconds(3600), on: clock)
        let system = Self.system(clock: clock, sender: sender, budget: .seconds(1))
        let result = await driving(clock, armed: 2) {
            await system.deliver(
                .file("a.json", bytes: payload(Self.articlePayload(image: false)), appState: .background))
        }
        #expect(result.time(of: .contentHandlerCalled) == 0)
        #expect(result.time(of: .receiptFailed) == 1, "cancelled when the 1 s budget ran out")
        #expect(!result.events.contains(.timeWillExpire), "the handler was already called: iOS does not call it")
        let receipt = try #require(result.receipt)
        #expect(receipt.status == nil)
        #expect(receipt.error?.contains("cancelled when the extension's budget of 1 s ran out") == true)
        #expect(receipt.completedAfterContentHandler)
        #expect(result.hint?.contains("may never reach the server") == true)
    }

    @Test func noReceiptWithoutAPushIDOrWhenTheExtensionDoesNotRun() async {
        let clock = ArmedTestClock()
        let sender = ScriptedReceiptSender { _ in 200 }
        let system = Self.system(clock: clock, sender: sender)
        let noID = await system.deliver(
            .file("a.json", bytes: payload(#"{"aps": {"alert": "x", "mutable-content": 1}}"#), appState: .background))
        let foreground = await system.deliver(
            .file("b.json", bytes: payload(Self.articlePayload(image: false)), appState: .foreground))
        #expect(noID.receipt == nil)
        #expect(foreground.receipt == nil)
        #expect(foreground.pushID == "2018001")
        #expect(noID.jsonValue["receipt"] == .null)
        #expect(sender.sent.all.isEmpty)
        #expect(!noID.events.contains(.receiptSent))
    }

    @Test func aNonHTTPSReceiptURLIsNeverSent() async {
        let sender = ScriptedReceiptSender { _ in 200 }
        let system = Self.system(
            clock: ArmedTestClock(), sender: sender, receiptURL: URL(string: "http://stats.example.com/r"))
        let result = await system.deliver(
            .file("a.json", bytes: payload(Self.articlePayload(image: false)), appState: .background))
        #expect(sender.sent.all.isEmpty)
        #expect(result.receipt?.error?.contains("only https") == true)
        #expect(result.events.contains(.receiptFailed))
    }

    @Test func aSystemWithoutASenderSaysSo() async {
        let system = NotificationSystem(
            downloader: ScriptedDownloader.succeeding(),
            configuration: DeliveryConfiguration(receiptURL: Self.receiptURL))
        let result = await system.deliver(
            .file("a.json", bytes: payload(Self.articlePayload(image: false)), appState: .background))
        #expect(result.receipt?.error == "not sent: this front end has no receipt sender")
    }

    @Test func pushIDKeyPathsFromTheCommandLineAndTheExpectation() async throws {
        let json = #"{"aps": {"alert": "x", "mutable-content": 1}, "meta": {"pid": 42}, "other": {"id": "o-1"}}"#
        let sender = ScriptedReceiptSender { _ in 200 }
        let system = NotificationSystem(
            downloader: ScriptedDownloader.succeeding(),
            configuration: DeliveryConfiguration(receiptURL: Self.receiptURL, pushIDKeys: ["meta.pid"]),
            receiptSender: sender)
        let result = await system.deliver(.file("a.json", bytes: payload(json), appState: .background))
        #expect(result.pushID == "42")
        #expect(sender.sent.all.map(\.pushID) == ["42"])

        let given = try DeliveryOverrides.parse(
            given: .object([
                "pushIDKeys": .array([.string("other.id")]), "receiptURL": .string("https://fixtures.richpush.test/r"),
            ]))
        #expect(given.pushIDKeys == ["other.id"])
        let bare = NotificationSystem(downloader: ScriptedDownloader.succeeding(), receiptSender: sender)
        let fromGiven = await bare.deliver(
            .file("a.json", bytes: payload(json), appState: .background, settings: given))
        #expect(fromGiven.pushID == "o-1")
        #expect(fromGiven.receipt?.url == "https://fixtures.richpush.test/r")

        #expect(throws: DeliveryOverridesError.self) {
            try DeliveryOverrides.parse(given: .object(["receiptURL": .string("http://stats.example.com/r")]))
        }
        do {
            _ = try DeliveryOverrides.parse(given: .object(["receiptURL": .string("http://stats.example.com/r")]))
        } catch {
            #expect(error.message.contains("given.receiptURL must be https"))
        }
    }

    @Test func theBodyIsFormEncoded() {
        let receipt = DisplayReceipt(url: Self.receiptURL, pushID: "a b&c=ü/1")
        #expect(receipt.formBody == "push_id=a+b%26c%3D%C3%BC%2F1")
        #expect(DisplayReceipt(url: Self.receiptURL, pushID: "2018001").formBody == "push_id=2018001")
    }
}
