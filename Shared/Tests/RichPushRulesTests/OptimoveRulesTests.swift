import Foundation
import RichPushRules
import Testing

@Suite("Optimove: Kumulos's gate and picture, its own CDN, naming and no delivery event")
struct OptimoveRulesTests {
    let rules = Optimove()

    private func downloaded(_ url: String, mediaType: String?) -> DownloadedFile {
        DownloadedFile(url: URL(string: url)!, payloadType: nil, name: "UUID", mediaType: mediaType, head: { [] })
    }

    @Test("the same gate as Kumulos; media ids, short ones too, go to i-us-east-1.app.delivery")
    func pictures() {
        #expect(
            rules.imageRequests(in: Value.object([("attachments", .object([("pictureUrl", .string("x.jpg"))]))]))
                .isEmpty)
        #expect(
            rules.imageRequests(in: KumulosRulesTests.message(picture: "x.jpg")).first?.url
                == "https://i-us-east-1.app.delivery/390x/x.jpg")
        #expect((try? rules.check(imageURL: "https://i-us-east-1.app.delivery/390x/x.jpg").get()) != nil)
        #expect(
            rules.missingCompanionHint(in: Value.object([("attachments", .object([("pictureUrl", .string("x.jpg"))]))]))
                != nil)
    }

    @Test("the extension is the URL path's (6.2.1+: the query is not part of it)")
    func naming() throws {
        #expect(
            try rules.attachmentName(for: downloaded("https://c.test/a.jpg?w=1", mediaType: nil)).get().fileName
                == "UUID.jpg")
        #expect(
            try rules.attachmentName(
                for: downloaded("https://c.test/sdk/photo?type=image/jpeg", mediaType: "image/jpeg")
            )
            .get().fileName == "UUID.jpeg")
    }

    @Test("no delivery event since 5.6.0; the module and pod lead to Optimove")
    func sdk() {
        #expect(rules.wouldSend(for: KumulosRulesTests.message(picture: "https://c.test/a.jpg")).isEmpty)
        #expect(Vendors.providing(module: "OptimoveNotificationServiceExtension")?.name == "optimove")
    }
}
