import Foundation
import RichPushRules
import Testing

@Suite("Iterable's rules: ITBNotificationServiceExtension")
struct IterableRulesTests {
    @Test("the image is itbl.attachment-url, a string; nothing else is read")
    func imageKey() {
        let payload = Value.object([
            ("itbl", .object([("attachment-url", .string("https://i.test/a.png")), ("messageId", .string("m1"))])),
            ("attachment-url", .string("https://i.test/top.png")),
        ])
        #expect(Iterable().imageRequests(in: payload).map(\.url) == ["https://i.test/a.png"])
        let number = Value.object([("itbl", .object([("attachment-url", .number(1))]))])
        #expect(Iterable().imageRequests(in: number).isEmpty)
    }

    @Test("the file is UUID + suggestedFilename with no separator; nothing is sent")
    func namingAndNoRequests() throws {
        let file = DownloadedFile(
            url: URL(string: "https://i.test/images/cat")!, payloadType: nil, name: "UUID", mediaType: "image/png",
            head: { [] })
        #expect(try Iterable().attachmentName(for: file).get().fileName == "UUIDcat.png")
        let payload = Value.object([("itbl", .object([("messageId", .string("m1"))]))])
        #expect(Iterable().wouldSend(for: payload).isEmpty)
        #expect(Iterable().sdk?.baseClasses == ["ITBNotificationServiceExtension"])
        #expect(Vendors.providing(module: "IterableAppExtensions")?.name == "iterable")
    }
}
