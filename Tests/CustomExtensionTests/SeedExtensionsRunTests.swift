import Foundation
import RichPushTestSupport
import Testing

/// The two seed articles' extensions, as users bring them (read from ../shared/seeds at test time, not copied
/// here), run by `replay --extension` against the fixture CDN's faults: each defect the blueprint found on a device
/// is reported by name.
@Suite(
    "The seed articles' extensions run under --extension and their defects are named",
    .enabled(if: SeedArticles.folder != nil, "../shared/seeds is not beside the repository"))
struct SeedExtensionsRunTests {
    /// Replays `payloads` (name → JSON) through the extension made of `files`; results by file name.
    func replay(_ files: [(name: String, text: String)], _ payloads: [String: String], budget: String)
        async throws -> [String: [String: Any]]
    {
        let folder = try TemporaryFolder()
        for file in files { _ = try folder.write("ext/" + file.name, file.text) }
        for (name, payload) in payloads {
            _ = try folder.write("payloads/\(name).json", payload)
            _ = try folder.write(
                "payloads/\(name).expect.json",
                #"{"given":{"appState":"background","extensionBudget":"\#(budget)"},"expect":{"delivered":true}}"#)
        }
        let run = try await runExecutable(
            richpushBinary(),
            ["replay", folder.path + "/payloads", "--extension", folder.path + "/ext", "--format", "json"],
            environment: ["XDG_CACHE_HOME": ExtensionProcessTests.cache])
        let results = try #require(
            try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]], "\(run.stderr)")
        var byName: [String: [String: Any]] = [:]
        for result in results {
            let file = (result["file"] as? String ?? "") as NSString
            byName[(file.lastPathComponent as NSString).deletingPathExtension] = result
        }
        return byName
    }

    func reason(_ result: [String: Any]?) -> String? {
        (result?["fallback"] as? [String: Any])?["reason"] as? String
    }

    func timeline(_ result: [String: Any]?) -> [String] {
        (result?["timeline"] as? [[String: Any]] ?? []).map {
            "\($0["event"] as? String ?? ""): \($0["detail"] as? String ?? "")"
        }
    }

    @Test("the pitfalls article: no download timeout, the file type taken from the URL")
    func pitfalls() async throws {
        let code = try #require(try SeedArticles.extensionCode(in: "article-rich-push-extension-pitfalls.txt"))
        func payload(_ image: String) -> String {
            #"{"aps":{"alert":{"title":"Sale","body":"Today only"},"mutable-content":1},"data":{"smallImage":"\#(image)"}}"#
        }
        let results = try await replay(
            [("NotificationService.swift", code)],
            [
                "slow": payload("https://fixtures.richpush.test/cat.png?delay=4s"),
                "query": payload("https://fixtures.richpush.test/cat.png?delay=10ms"),
                "plain": payload("https://fixtures.richpush.test/cat.png"),
            ], budget: "2s")
        // URLSession.shared waits 60 s: the 2 s budget runs out first.
        #expect(reason(results["slow"]) == "extensionExpired", "\(timeline(results["slow"]))")
        // The type is the URL's path extension, query included: "png?delay=10ms" is no type iOS attaches.
        #expect(results["query"]?["style"] as? String == "plain")
        #expect(
            timeline(results["query"]).contains {
                $0.contains("attachmentRejected") && $0.contains("attachmentUnrecognizedType")
            },
            "\(timeline(results["query"]))")
        #expect(results["plain"]?["style"] as? String == "rich")
    }

    @Test("the display-statistics article: no status or Content-Type check, no download timeout")
    func statistics() async throws {
        let files = try #require(try SeedArticles.statisticsExtension())
        func payload(_ image: String) -> String {
            #"{"aps":{"alert":{"title":"News","body":"Read more","image":"\#(image)","push_id":"42"},"mutable-content":1}}"#
        }
        let results = try await replay(
            files,
            [
                "missing": payload("https://fixtures.richpush.test/cat.png?status=404"),
                "slow": payload("https://fixtures.richpush.test/cat.png?delay=4s"),
                "plain": payload("https://fixtures.richpush.test/cat.png"),
            ], budget: "2s")
        // The 404 page is saved as cat.png and attached: iOS refuses a file that is not the image its name says.
        #expect(reason(results["missing"]) == "attachmentRejected", "\(timeline(results["missing"]))")
        #expect(reason(results["slow"]) == "extensionExpired", "\(timeline(results["slow"]))")
        #expect(results["plain"]?["style"] as? String == "rich", "\(timeline(results["plain"]))")
    }
}
