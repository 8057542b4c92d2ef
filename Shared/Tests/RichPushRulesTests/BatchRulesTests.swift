import Foundation
import RichPushRules
import Testing

@Suite("Batch's rules: RichNotificationHelper (BatchExtension 4.0.0)")
struct BatchRulesTests {
    @Test("the download keeps its own name and is typed by com.batch.at.t; nothing else is sent")
    func typeHint() throws {
        let file = DownloadedFile(
            url: URL(string: "https://b.test/p")!, payloadType: "public.png", name: "CFNetworkDownload_1",
            mediaType: "image/jpeg", head: { [] })
        let name = try Batch().attachmentName(for: file).get()
        #expect(name == AttachmentName(fileName: "CFNetworkDownload_1", typeHint: "public.png"))
        let payload = Value.object([
            ("com.batch", .object([("at", .object([("u", .string("https://b.test/p"))])), ("r", .object([]))]))
        ])
        #expect(Batch().imageRequests(in: payload).isEmpty)
        #expect(Batch().missingCompanionHint(in: payload)?.contains("com.batch.at.t") == true)
        #expect(Batch().wouldSend(for: payload).isEmpty)
        #expect(Batch().timeout == .fixed(.seconds(20)))
    }

    @Test("the extension is known by its module, base class, pod and package")
    func sdk() throws {
        let sdk = try #require(Batch().sdk)
        #expect(sdk.baseClasses == ["BAENotificationServiceExtension"])
        #expect(sdk.packages == ["batch-ios-sdk-extension"])
        #expect(Vendors.providing(module: "BatchExtension")?.name == "batch")
    }
}
