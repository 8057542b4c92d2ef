import Foundation
import RichPushRules
import Testing

/// A payload as a plain value, for the rules to read.
indirect enum Value: PayloadNode {
    case string(String)
    case number(Double)
    case array([Value])
    case object([(String, Value)])

    func member(_ key: String) -> Value? {
        if case .object(let pairs) = self { return pairs.first { $0.0 == key }?.1 }
        return nil
    }
    var members: [(key: String, value: Value)]? {
        if case .object(let pairs) = self { return pairs.map { (key: $0.0, value: $0.1) } }
        return nil
    }
    var elements: [Value]? {
        if case .array(let values) = self { return values }
        return nil
    }
    var string: String? {
        if case .string(let text) = self { return text }
        return nil
    }
}

@Suite("Each vendor's rules, read alike by richpush and the vendor modules")
struct VendorRulesTests {
    func file(_ url: String, mediaType: String?, type: String? = nil, head: [UInt8] = []) -> DownloadedFile {
        DownloadedFile(
            url: URL(string: url)!, payloadType: type, name: "abc", mediaType: mediaType, head: { head })
    }

    @Test("a key path tries keys that hold dots: com.urbanairship.media_attachment, com.batch")
    func dottedKeys() {
        let payload = Value.object([
            (
                "com.batch",
                .object([("at", .object([("u", .string("https://b.test/x.jpg")), ("t", .string("public.jpeg"))]))])
            ),
            (
                "com.urbanairship.media_attachment",
                .object([("url", .array([.string("https://a.test/1")]))])
            ),
        ])
        #expect(
            Batch().imageRequests(in: payload) == [
                ImageRequest(keyPath: "com.batch.at.u", url: "https://b.test/x.jpg", type: "public.jpeg")
            ])
        #expect(Airship().imageRequests(in: payload).map(\.url) == ["https://a.test/1"])
    }

    @Test("every vendor is known by its name, once, richpush's own first")
    func registry() {
        let names = Vendors.all.map(\.name)
        #expect(names.first == "requirement" && Set(names).count == names.count)
        for name in names { #expect(Vendors.named(name.uppercased())?.name == name) }
    }

    @Test("Firebase 7+: the suggested name's extension, else image/ replaced by a dot, else nothing at all")
    func firebaseNaming() throws {
        let rules = Firebase()
        #expect(
            try rules.attachmentName(for: file("https://c.test/a.png", mediaType: "text/html")).get().fileName
                == "abc.png")
        #expect(
            try rules.attachmentName(for: file("https://c.test/a", mediaType: "image/webp")).get().fileName
                == "abc.webp")
        #expect(
            try rules.attachmentName(for: file("https://c.test/a", mediaType: "application/octet-stream")).get()
                .fileName == "abc")
    }

    @Test("OneSignal attaches nothing without a supported extension; Airship falls back to magic bytes")
    func namingRefusalsAndHints() throws {
        let refused = OneSignal().attachmentName(
            for: file("https://c.test/photo", mediaType: "application/octet-stream"))
        guard case .failure(let refusal) = refused else {
            Issue.record("OneSignal named a file it cannot type")
            return
        }
        #expect(refusal.reason == .unsupportedImageType)
        let sniffed = try Airship().attachmentName(
            for: file("https://c.test/photo", mediaType: "application/octet-stream", head: [0xFF, 0xD8, 0xFF, 0xE0])
        ).get()
        #expect(sniffed.typeHint == "public.jpeg")
    }

    @Test("http is refused as each extension refuses it; OneSignal's other schemes are bundle files")
    func schemes() {
        guard case .failure(let own) = Requirement().check(imageURL: "http://c.test/a.png"),
            case .failure(let vendor) = Iterable().check(imageURL: "http://c.test/a.png"),
            case .failure(let bundle) = OneSignal().check(imageURL: "cat.png-not-a-url:x")
        else {
            Issue.record("a URL was accepted")
            return
        }
        #expect(own.reason == .insecureURL && !own.detail.contains("NSURLSession"))
        #expect(vendor.reason == .insecureURL && vendor.detail.contains("NSURLSession"))
        #expect(bundle.reason == .invalidURL && bundle.detail.contains("app bundle"))
    }
}
