import Foundation
import RichPushRules
import Testing

@Suite("Klaviyo: rich-media, named by rich-media-type or jpg")
struct KlaviyoRulesTests {
    let rules = Klaviyo()

    private func downloaded(_ url: String, type: String?) -> DownloadedFile {
        DownloadedFile(
            url: URL(string: url)!, payloadType: type, name: "download", mediaType: "image/png",
            head: { [] })
    }

    @Test("rich-media with rich-media-type beside it, from any payload")
    func requests() {
        let payload = Value.object([("rich-media", .string("https://c.test/a")), ("rich-media-type", .string("png"))])
        #expect(
            rules.imageRequests(in: payload) == [
                ImageRequest(keyPath: "rich-media", url: "https://c.test/a", type: "png")
            ])
        #expect(rules.imageRequests(in: Value.object([("rich-media", .string("https://c.test/a"))])).first?.type == nil)
        #expect(rules.wouldSend(for: payload).isEmpty)
    }

    @Test("the file is the download's name, a dot and the payload's type or jpg, whatever the server sent")
    func naming() throws {
        #expect(
            try rules.attachmentName(for: downloaded("https://c.test/a.png", type: "gif")).get()
                == AttachmentName(fileName: "download.gif"))
        #expect(
            try rules.attachmentName(for: downloaded("https://c.test/a.png", type: nil)).get().fileName
                == "download.jpg")
        #expect(Vendors.providing(module: "KlaviyoSwiftExtension")?.name == "klaviyo")
    }
}
