import Foundation
import RichPushCore
import Testing
import RichPushTestSupport

/// `richpush replay --receipt-url` run as a user runs it: the real binary, receipts POSTed over real HTTPS to the
/// fixture CDN, which starts for the receipt URL alone.
@Suite(.serialized) struct ReceiptCommandTests {
    static let fixtures = "\(repositoryRoot)/payloads/images"

    @Test func theReceiptURLFlagSendsReceiptsAndTheJSONReportsThem() async throws {
        let folder = try TemporaryFolder()
        // No payload mentions the fixture host: the receipt URL alone starts the fixture CDN.
        try folder.write(
            "a.json", #"{"aps": {"alert": {"push_id": "2018001", "title": "A", "body": "b"}, "mutable-content": 1}}"#)
        try folder.write("b.json", #"{"aps": {"alert": "B", "mutable-content": 1}, "meta": {"pid": "p-7"}}"#)
        try folder.write("c.json", #"{"aps": {"alert": "C", "mutable-content": 1}}"#)
        let run = try await runRichpush([
            "replay", folder.path, "--format", "json", "--fixtures", Self.fixtures,
            "--receipt-url", "https://fixtures.richpush.test/receipts?delay=500ms", "--push-id-key", "meta.pid",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        guard case .array(let results) = try JSONParser.parse(Array(run.stdout.utf8)), results.count == 3 else {
            Issue.record("not an array of 3: \(run.stdout)")
            return
        }
        let a = try #require(results[0]["receipt"])
        #expect(a["pushID"] == "2018001")
        #expect(a["status"] == 200)
        #expect(a["error"] == .null)
        #expect(a["url"] == "https://fixtures.richpush.test/receipts?delay=500ms")
        #expect(a["completedAfterContentHandler"] == true, "no image: the handler is called before the answer")
        #expect(results[0]["hint"]?.stringValue?.contains("may never reach the server") == true)
        var events: [String] = []
        if case .array(let timeline)? = results[0]["timeline"] {
            events = timeline.compactMap { $0["event"]?.stringValue }
        }
        #expect(events.contains("receiptSent") && events.contains("receiptFinished"), "\(events)")
        #expect(results[1]["pushID"] == "p-7", "--push-id-key meta.pid")
        #expect(results[1]["receipt"]?["pushID"] == "p-7")
        #expect(results[2]["receipt"] == .null, "no push id, no receipt")
    }

    @Test func aReceiptURLThatIsNotHTTPSIsAUsageError() async throws {
        let run = try await runRichpush(["replay", "payloads/receipts", "--receipt-url", "http://stats.example.com/r"])
        #expect(run.status == 2)
        let lines = run.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(run.stderr)")
        #expect(run.stderr.contains("--receipt-url must be https"))
    }

    @Test func aBrokenGivenReceiptURLFailsItsPayloadNamingTheFile() async throws {
        let folder = try TemporaryFolder()
        try folder.write("a.json", #"{"aps": {"alert": "A", "mutable-content": 1}, "push_id": "1"}"#)
        try folder.write("a.expect.json", #"{"given": {"receiptURL": "http://stats.example.com/r"}, "expect": {}}"#)
        let run = try await runRichpush(["replay", folder.path, "--fixtures", Self.fixtures])
        #expect(run.status == 1)
        #expect(run.stdout.contains("a.expect.json"), "\(run.stdout)")
        #expect(run.stdout.contains("given.receiptURL must be https"), "\(run.stdout)")
    }
}
