import CryptoKit
import Foundation
import PushwooshNotificationUI
import Testing

@Suite("Pushwoosh: PushwooshStoriesMediaPrefetcher, as PushwooshNotificationUI 7.2's")
struct PushwooshStoriesTests {
    static let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) + Data(repeating: 7, count: 200)

    /// The prefetch's cache file for `url`: the App Group's `pw_stories_cache`, named by the URL's SHA-256 in hex.
    static func cacheFile(_ url: String, group: String) throws -> URL {
        let container = try #require(
            FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: group))
        let name = SHA256.hash(data: Data(url.utf8)).map { String(format: "%02x", $0) }.joined()
        return container.appendingPathComponent("pw_stories_cache/\(name)")
    }

    static func prefetch(_ userInfo: [AnyHashable: Any], group: String) async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            PushwooshStoriesMediaPrefetcher.prefetch(userInfo: userInfo, appGroupIdentifier: group) {
                done.resume()
            }
        }
    }

    @Test("each page's image lands in the App Group's cache, from pw_stories at the top or in u as a JSON string")
    func pagesAreCached() async throws {
        let group = "group.richpush.stories.\(UUID().uuidString)"
        let top = try LocalHTTPServer(contentType: "image/png", body: Self.png)
        let inCustomData = try LocalHTTPServer(contentType: "image/png", body: Self.png)
        let topURL = "http://127.0.0.1:\(top.port)/page-1.png"
        let customURL = "http://127.0.0.1:\(inCustomData.port)/page-2.png"

        await Self.prefetch(["pw_stories": ["pages": [["image": topURL, "duration": 5]]]], group: group)
        let stories = #"{"pw_stories":{"pages":[{"image":"\#(customURL)"}]}}"#
        await Self.prefetch(["u": stories, "pw_msg": "1"], group: group)

        #expect(try Data(contentsOf: Self.cacheFile(topURL, group: group)) == Self.png)
        #expect(try Data(contentsOf: Self.cacheFile(customURL, group: group)) == Self.png)
    }

    @Test("a body that is not an image is not kept, and a push without stories completes at once")
    func notAnImageIsNotKept() async throws {
        let group = "group.richpush.stories.\(UUID().uuidString)"
        let page = try LocalHTTPServer(contentType: "text/html", body: Data("<html>gone</html>".utf8))
        let url = "http://127.0.0.1:\(page.port)/page.png"
        await Self.prefetch(["userdata": ["pw_stories": ["pages": [["image": url]]]]], group: group)
        #expect(!FileManager.default.fileExists(atPath: try Self.cacheFile(url, group: group).path))

        let started = ContinuousClock.now
        await Self.prefetch(["aps": ["alert": "no stories"]], group: group)
        #expect(ContinuousClock.now - started < .seconds(5))
    }
}
