import Foundation
import RichPushRules
import Testing

@Suite("CleverTap's rules: CTNotificationServiceExtension 0.1.5+ and the Notification Viewed event")
struct CleverTapRulesTests {
    func file(type: String?, mediaType: String?) -> DownloadedFile {
        DownloadedFile(
            url: URL(string: "https://c.test/media")!, payloadType: type, name: "abc", mediaType: mediaType,
            head: { [] })
    }

    @Test("image, video and audio name the file; any other type takes the MIME type's, else a bare dot (0.1.5+)")
    func naming() throws {
        let rules = CleverTap()
        let cases: [(String, String?, String)] = [
            ("image", "image/png", "abc.jpg"), ("video", nil, "abc.mp4"), ("audio", "image/gif", "abc.mp3"),
            // Up to 0.1.4 these were abc.gif and abc.jpeg: the type itself.
            ("gif", "image/png", "abc.png"), ("jpeg", "application/octet-stream", "abc."),
            ("png", nil, "abc."), ("gif", "image/gif", "abc.gif"), ("jpg", "image/jpeg", "abc.jpeg"),
        ]
        for (type, mediaType, expected) in cases {
            #expect(
                try rules.attachmentName(for: file(type: type, mediaType: mediaType)).get().fileName == expected,
                "\(type), \(mediaType ?? "no Content-Type")")
        }
    }

    @Test("mediaUrlKey and mediaTypeKey replace ct_mediaUrl and ct_mediaType; both are needed")
    func customKeys() {
        let payload = Value.object([
            ("ct_mediaUrl", .string("https://c.test/default.jpg")), ("ct_mediaType", .string("image")),
            ("my.url", .string("https://c.test/mine.jpg")), ("my_type", .string("image")),
        ])
        #expect(CleverTap().imageRequests(in: payload).map(\.url) == ["https://c.test/default.jpg"])
        let custom = CleverTap(mediaUrlKey: "my.url", mediaTypeKey: "my_type")
        #expect(
            custom.imageRequests(in: payload) == [
                ImageRequest(keyPath: "my.url", url: "https://c.test/mine.jpg", type: "image")
            ])
        #expect(CleverTap(mediaTypeKey: "absent").imageRequests(in: payload).isEmpty)
        #expect(CleverTap(mediaTypeKey: "absent").missingCompanionHint(in: payload)?.contains("absent") == true)
    }

    @Test("the viewed event carries the W$ and wzrk_ keys, after a handshake unless a region names the domain")
    func notificationViewed() throws {
        let payload = Value.object([
            ("W$id", .string("0_1")), ("wzrk_pn", .string("true")), ("other", .string("x")),
            ("wzrk_ttl", .number(1)),
        ])
        let plain = CleverTap().wouldSend(for: payload)
        #expect(plain.map(\.method) == ["GET", "POST"])
        #expect(plain.first?.url == "https://clevertap-prod.com/hello")
        let event = try #require(plain.last)
        #expect(event.url.contains("z=<CleverTapAccountID>"))
        let names = event.fields.map(\.0)
        #expect(names == ["evtName", "wzrk_id", "wzrk_pn", "wzrk_ttl", "wzrk_cts"])
        #expect(event.fields.first { $0.0 == "wzrk_id" }?.1 == "0_1")
        let regional = CleverTap(accountID: "TEST-123", region: " EU1 ").wouldSend(for: payload)
        #expect(regional.map(\.url) == ["https://eu1-spiky.clevertap-prod.com/a1?os=iOS&z=TEST-123"])
    }

    @Test("the extension is known by its modules, base class, pods and packages")
    func sdk() throws {
        let sdk = try #require(CleverTap().sdk)
        #expect(sdk.modules == ["CTNotificationService", "CleverTapSDK"])
        #expect(sdk.baseClasses == ["CTNotificationServiceExtension"])
        #expect(Vendors.providing(module: "CleverTapSDK")?.name == "clevertap")
    }
}
