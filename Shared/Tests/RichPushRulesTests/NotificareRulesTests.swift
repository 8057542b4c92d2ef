import Foundation
import RichPushRules
import Testing

@Suite("Notificare: attachment.uri, named after the URL, typed by the response's MIME type")
struct NotificareRulesTests {
    let rules = Notificare()

    private func downloaded(_ url: String, mediaType: String?) -> DownloadedFile {
        DownloadedFile(url: URL(string: url)!, payloadType: nil, name: "UUID", mediaType: mediaType, head: { [] })
    }

    @Test("the URL is attachment.uri of an attachment object; Pushwoosh's attachment string is not read")
    func imageKey() {
        let payload = Value.object([
            ("attachment", .object([("uri", .string("https://c.test/a.png")), ("mimeType", .string("image/png"))]))
        ])
        #expect(
            rules.imageRequests(in: payload) == [ImageRequest(keyPath: "attachment.uri", url: "https://c.test/a.png")])
        #expect(rules.imageRequests(in: Value.object([("attachment", .string("https://c.test/a.png"))])).isEmpty)
        #expect(rules.imageRequests(in: Value.object([("attachment", .object([("uri", .number(1))]))])).isEmpty)
    }

    @Test("the file is the URL's last path component; the MIME type is the type hint, refused when iOS cannot type it")
    func namingAndHint() throws {
        let jpeg = try rules.attachmentName(for: downloaded("https://c.test/sdk/photo?x=1", mediaType: "image/jpeg"))
            .get()
        #expect(jpeg == AttachmentName(fileName: "photo", typeHint: "public.jpeg"))
        // No Content-Type: no hint, the name's extension types it.
        #expect(
            try rules.attachmentName(for: downloaded("https://c.test/photo.jpg", mediaType: nil)).get()
                == AttachmentName(fileName: "photo.jpg"))
        // A .jpg served as octet-stream: the hint names no image type and UNNotificationAttachment throws.
        guard
            case .failure(let refusal) = rules.attachmentName(
                for: downloaded("https://c.test/photo.jpg", mediaType: "application/octet-stream"))
        else {
            Issue.record("an octet-stream type hint was accepted")
            return
        }
        #expect(refusal.reason == .unsupportedImageType && refusal.detail.contains("application/octet-stream"))
    }

    @Test("a URL without a path (a trap) or with the path / (a failed write) fetches nothing")
    func pathlessURLs() {
        for text in ["https://c.test", "https://c.test/"] {
            guard case .failure(let refusal) = rules.check(imageURL: text) else {
                Issue.record("\(text) was accepted")
                continue
            }
            #expect(refusal.reason == .invalidURL, "\(text)")
        }
        #expect((try? rules.check(imageURL: "https://c.test/a/").get()) != nil)
    }

    @Test("the extension kit's module, pod and package lead to Notificare")
    func sdk() {
        #expect(Vendors.providing(module: "NotificareNotificationServiceExtensionKit")?.name == "notificare")
        #expect(rules.sdk?.pods == ["Notificare"] && rules.sdk?.packages == ["notificare-sdk-ios"])
        #expect(rules.wouldSend(for: Value.object([])).isEmpty)
    }
}
