import Foundation
import RichPushTestSupport
import Testing

/// Apple's SDK beyond UserNotifications, as a team's extension uses it (examples/extensions/apple-sdk: SQLite3,
/// Compression, WidgetKit, UIKit's image context), through the real binary, the real compiler and the fixture CDN.
@Suite("Apple's SQLite3, Compression and WidgetKit in a team's extension", .serialized)
struct AppleSDKExampleTests {
    static let cache = ExtensionProcessTests.cache

    func events(_ result: [String: Any]?) -> [(event: String, detail: String)] {
        (result?["timeline"] as? [[String: Any]] ?? []).map {
            ($0["event"] as? String ?? "", $0["detail"] as? String ?? "")
        }
    }

    /// Results by payload name.
    func byName(_ run: CommandRun) throws -> [String: [String: Any]] {
        let results = try #require(
            try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]], "\(run.stderr)")
        var byName: [String: [String: Any]] = [:]
        for result in results {
            let file = (result["file"] as? String ?? "") as NSString
            byName[(file.lastPathComponent as NSString).deletingPathExtension] = result
        }
        return byName
    }

    func body(_ result: [String: Any]?) -> String? {
        (result?["deliveredContent"] as? [String: Any])?["body"] as? String
    }

    @Test(
        "examples/extensions/apple-sdk: the decompressed summary is the body, the image is resized and stored, the widget reloads"
    )
    func example() async throws {
        let run = try await runExecutable(
            richpushBinary(),
            [
                "replay", "payloads/extensions/apple-sdk", "--extension", "examples/extensions/apple-sdk", "--format",
                "json",
            ],
            environment: ["XDG_CACHE_HOME": Self.cache])
        #expect(run.status == 0, "\(run.stderr)")
        let results = try byName(run)
        let reload = ("frameworkNote", "WidgetKit: reloadAllTimelines()")

        // COMPRESSION_ZLIB read the server's raw deflate; UIGraphicsBeginImageContextWithOptions made 200x150;
        // SQLite stored the row; WidgetKit's reload is in the timeline.
        let shipped = results["order-shipped"]
        #expect(shipped?["style"] as? String == "rich")
        #expect(body(shipped) == "Order #4411 shipped: 2 items, arriving Tuesday between 9 and 12.")
        let attachment = shipped?["attachment"] as? [String: Any]
        #expect(
            attachment?["width"] as? Int == 200 && attachment?["height"] as? Int == 150,
            "\(String(describing: attachment))")
        #expect(events(shipped).contains { $0 == reload }, "\(events(shipped))")
        let log = (shipped?["extensionLog"] as? [String] ?? []).joined(separator: "\n")
        #expect(
            log.contains("stored https://fixtures.richpush.test/cat.png for the widget (1 image(s) in the database)"),
            "\(log)")

        // A summary that is not raw deflate: Compression says 0 bytes, the body stays as sent.
        let notDeflate = results["summary-not-deflate"]
        #expect(notDeflate?["style"] as? String == "rich")
        #expect(body(notDeflate) == "Open the app for details")

        // No image: plain, the summary still decompressed, nothing stored, no widget reload.
        let missing = results["image-404"]
        #expect(missing?["style"] as? String == "plain")
        #expect(body(missing) == "Order #4413 shipped: 1 item.")
        #expect(!events(missing).contains { $0.event == "frameworkNote" && $0.detail.hasPrefix("WidgetKit") })
    }
}
