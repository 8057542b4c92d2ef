import Foundation
import RichPushRules
import Testing

@Suite("Kumulos: attachments.pictureUrl of a message with an id, media ids resized on the CDN")
struct KumulosRulesTests {
    let rules = Kumulos()

    /// A Kumulos message with `pictureUrl`.
    static func message(picture: String) -> Value {
        Value.object([
            ("custom", .object([("a", .object([("k.message", .object([("data", .object([("id", .number(42))]))]))]))])),
            ("attachments", .object([("pictureUrl", .string(picture))])),
        ])
    }

    private func downloaded(_ url: String, mediaType: String?) -> DownloadedFile {
        DownloadedFile(url: URL(string: url)!, payloadType: nil, name: "UUID", mediaType: mediaType, head: { [] })
    }

    @Test("without custom.a.k.message.data.id nothing is read and a hint says the handler is never called")
    func gate() {
        let picture = Value.object([("attachments", .object([("pictureUrl", .string("https://c.test/a.jpg"))]))])
        #expect(!rules.handlesMessage(in: picture))
        #expect(rules.imageRequests(in: picture).isEmpty)
        #expect(rules.wouldSend(for: picture).isEmpty)
        #expect(rules.missingCompanionHint(in: picture)?.contains("without calling the content handler") == true)
        let message = Self.message(picture: "https://c.test/a.jpg")
        #expect(rules.handlesMessage(in: message) && rules.missingCompanionHint(in: message) == nil)
        #expect(
            rules.wouldSend(for: message).first?.url.hasPrefix("https://events.kumulos.com/v1/app-installs/") == true)
    }

    @Test("an absolute URL is fetched as it is; a media id is resized to the screen's width on i.app.delivery")
    func pictureURLs() {
        #expect(
            rules.imageRequests(in: Self.message(picture: "http://c.test/a.jpg")).first?.url == "http://c.test/a.jpg")
        #expect(
            rules.imageRequests(in: Self.message(picture: "a1b2c3d4e5.jpg")).first?.url
                == "https://i.app.delivery/390x/a1b2c3d4e5.jpg")
    }

    @Test("a value shorter than 8 characters traps in Kumulos's MediaHelper: nothing is fetched")
    func shortValue() {
        let request = rules.imageRequests(in: Self.message(picture: "abc.jpg"))
        #expect(request.first?.url == "abc.jpg")
        guard case .failure(let refusal) = rules.check(imageURL: "abc.jpg") else {
            Issue.record("a 7-character value was fetched")
            return
        }
        #expect(refusal.reason == .invalidURL && refusal.detail.contains("crashes"))
    }

    @Test("the extension is the value's after its last /, query included; else the suggested name's; else nothing")
    func naming() throws {
        // `a.jpg?w=1` keeps its query: a file iOS cannot type.
        #expect(
            try rules.attachmentName(for: downloaded("https://c.test/a.jpg?w=1", mediaType: "image/jpeg")).get()
                .fileName == "UUID.jpg_w_1")
        // A / in the query hides the .jpg: the suggested name (photo.jpg) gives it.
        #expect(
            try rules.attachmentName(
                for: downloaded("https://c.test/photo.jpg?type=application/octet-stream", mediaType: nil)
            ).get().fileName == "UUID.jpg")
        #expect(
            try rules.attachmentName(for: downloaded("https://c.test/sdk/photo", mediaType: "image/png")).get()
                .fileName == "UUID.png")
        guard
            case .failure(let refusal) = rules.attachmentName(
                for: downloaded("https://c.test/sdk/photo", mediaType: "application/octet-stream"))
        else {
            Issue.record("a file without any extension was attached")
            return
        }
        #expect(refusal.reason == .unsupportedImageType)
    }

    @Test("the extension module, its pod and package lead to Kumulos")
    func sdk() {
        #expect(Vendors.providing(module: "KumulosSDKExtension")?.name == "kumulos")
        #expect(rules.sdk?.pods == ["KumulosSdkSwiftExtension"] && rules.sdk?.packages == ["kumulossdkswift"])
    }
}
