import Foundation
import RichPushRules
import Testing

@Suite("Pushwoosh: attachment of pw_msg messages, UUID + suggested file name")
struct PushwooshRulesTests {
    let rules = Pushwoosh()

    private func downloaded(_ url: String, mediaType: String?) -> DownloadedFile {
        DownloadedFile(url: URL(string: url)!, payloadType: nil, name: "UUID", mediaType: mediaType, head: { [] })
    }

    @Test("the attachment is read only from a Pushwoosh message (pw_msg); without it a hint says why")
    func onlyPushwooshMessages() {
        let image = ("attachment", Value.string("https://c.test/photo.jpg"))
        let message = Value.object([("pw_msg", .string("1")), ("p", .string("h4sh")), image])
        #expect(
            rules.imageRequests(in: message) == [ImageRequest(keyPath: "attachment", url: "https://c.test/photo.jpg")])
        #expect(rules.missingCompanionHint(in: message) == nil)
        let other = Value.object([image])
        #expect(rules.imageRequests(in: other).isEmpty)
        #expect(rules.missingCompanionHint(in: other)?.contains("pw_msg") == true)
        // Any value marks the message, as `userInfo["pw_msg"] != nil`.
        #expect(rules.imageRequests(in: Value.object([("pw_msg", .number(1)), image])).count == 1)
        // A non-string attachment is nothing.
        #expect(rules.imageRequests(in: Value.object([("pw_msg", .number(1)), ("attachment", .number(3))])).isEmpty)
    }

    @Test("the delivery event is recorded for a Pushwoosh message only, with the payload's hash")
    func deliveryEvent() {
        let message = Value.object([("pw_msg", .string("1")), ("p", .string("h4sh"))])
        let sent = rules.wouldSend(for: message)
        #expect(sent.count == 1)
        #expect(sent.first?.url.hasSuffix("/json/1.3/messageDeliveryEvent") == true)
        #expect(sent.first?.fields.contains { $0 == "hash" && $1 == "h4sh" } == true)
        #expect(rules.wouldSend(for: Value.object([("p", .string("h4sh"))])).isEmpty)
    }

    @Test("the file is the UUID followed by the suggested file name, without a separator or a type hint")
    func naming() throws {
        let jpg = try rules.attachmentName(for: downloaded("https://c.test/img/photo.jpg?w=2", mediaType: "text/html"))
            .get()
        #expect(jpg == AttachmentName(fileName: "UUIDphoto.jpg"))
        // The suggested name takes the MIME type's extension when the URL has none; octet-stream gives none.
        #expect(
            try rules.attachmentName(for: downloaded("https://c.test/photo", mediaType: "image/png")).get().fileName
                == "UUIDphoto.png")
        #expect(
            try rules.attachmentName(for: downloaded("https://c.test/photo", mediaType: "application/octet-stream"))
                .get().fileName == "UUIDphoto")
    }

    @Test("both module names, the base class, both pods and the package lead to Pushwoosh")
    func sdk() {
        #expect(Vendors.providing(module: "PushwooshFramework")?.name == "pushwoosh")
        #expect(Vendors.providing(module: "Pushwoosh")?.name == "pushwoosh")
        #expect(rules.sdk?.baseClasses == ["PushwooshNotificationServiceExtension"])
        #expect(rules.sdk?.pods == ["PushwooshXCFramework", "Pushwoosh"])
        #expect(rules.sdk?.packages == ["pushwoosh-xcframework"])
    }
}
