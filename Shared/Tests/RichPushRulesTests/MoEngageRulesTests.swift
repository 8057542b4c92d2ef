import Foundation
import RichPushRules
import Testing

@Suite("MoEngage's rules: MoEngageSDKRichNotification (8.01.10 naming; much unconfirmed)")
struct MoEngageRulesTests {
    func file(_ url: String, mediaType: String?) -> DownloadedFile {
        DownloadedFile(url: URL(string: url)!, payloadType: nil, name: "abc", mediaType: mediaType, head: { [] })
    }

    @Test("the image is moengage.media-attachment, of a MoEngage push only")
    func imageKey() {
        let push = Value.object([
            (
                "moengage",
                .object([
                    ("media-attachment", .string("https://m.test/a.png")), ("app_id", .string("APP")),
                    ("cid", .string("c1")),
                ])
            )
        ])
        #expect(MoEngage().imageRequests(in: push).map(\.url) == ["https://m.test/a.png"])
        #expect(
            MoEngage().imageRequests(in: Value.object([("media-attachment", .string("https://m.test/a.png"))])).isEmpty)
        let impression = MoEngage().wouldSend(for: push)
        #expect(impression.map(\.url) == ["https://apiv2.moengage.com/v2/report/add/APP"])
        #expect(impression.first?.summary.contains("cid=c1") == true)
        #expect(MoEngage().wouldSend(for: Value.object([("aps", .object([]))])).isEmpty)
    }

    @Test("the file takes the MIME type's extension, else the URL's, else none")
    func naming() throws {
        let rules = MoEngage()
        #expect(
            try rules.attachmentName(for: file("https://m.test/p", mediaType: "image/jpeg")).get().fileName
                == "abc.jpeg")
        #expect(
            try rules.attachmentName(for: file("https://m.test/p.png", mediaType: "application/octet-stream")).get()
                .fileName == "abc.png")
        #expect(try rules.attachmentName(for: file("https://m.test/p", mediaType: nil)).get().fileName == "abc")
        #expect(Vendors.providing(module: "MoEngageRichNotification")?.name == "moengage")
    }
}
