import Foundation
import RichPushRules
import Testing

@Suite("Infobip: internalData.atts[0].url of a message, named by the URL path's extension only")
struct InfobipRulesTests {
    let rules = Infobip()

    static func message(_ urls: [String], messageID: Value = .string("m-1")) -> Value {
        Value.object([
            ("aps", .object([("alert", .string("Hi"))])), ("messageId", messageID),
            ("internalData", .object([("atts", .array(urls.map { .object([("url", .string($0))]) }))])),
        ])
    }

    private func downloaded(_ url: String, mediaType: String?) -> DownloadedFile {
        DownloadedFile(url: URL(string: url)!, payloadType: nil, name: "UUID", mediaType: mediaType, head: { [] })
    }

    @Test("only the first attachment of a message with a string messageId and aps")
    func requests() {
        let message = Self.message(["https://c.test/1.png", "https://c.test/2.png"])
        #expect(rules.imageRequests(in: message).map(\.url) == ["https://c.test/1.png"])
        #expect(rules.imageRequests(in: Self.message(["https://c.test/1.png"], messageID: .number(1))).isEmpty)
        #expect(rules.missingCompanionHint(in: Self.message(["https://c.test/1.png"], messageID: .number(1))) != nil)
        #expect(rules.wouldSend(for: message).first?.fields.first.map { "\($0)=\($1)" } == "dlrIds=[m-1]")
    }

    @Test("the extension comes only from the URL's path: none leaves a name ending in a dot")
    func naming() throws {
        #expect(
            try rules.attachmentName(for: downloaded("https://c.test/a.png?x=1", mediaType: "image/jpeg")).get()
                == AttachmentName(fileName: "UUID.png"))
        #expect(
            try rules.attachmentName(
                for: downloaded("https://c.test/sdk/photo?type=image/jpeg", mediaType: "image/jpeg")
            )
            .get().fileName == "UUID.")
    }

    @Test("20 s in 15.x; URLSession's 60 s up to 14.x, whose 20 s setting never takes effect")
    func timeouts() {
        #expect(Infobip().timeout == .fixed(.seconds(20)))
        #expect(Infobip(generation: .upTo14).timeout == .fixed(.seconds(60)))
        #expect(Infobip(generation: .upTo14).name == "infobip")
        #expect(Vendors.providing(module: "MobileMessaging")?.name == "infobip")
        #expect(Vendors.providing(module: "MobileMessagingNotificationExtension")?.name == "infobip")
    }
}
