import Foundation
import RichPushRules
import Testing

@Suite("Customer.io's rules: MessagingPush handles only pushes with a delivery id and token")
struct CustomerIORulesTests {
    let image = ("CIO", Value.object([("push", .object([("image", .string("https://c.test/a.jpg"))]))]))

    @Test("without CIO-Delivery-ID and CIO-Delivery-Token (strings) the image is not read, and a hint says why")
    func deliveryGate() {
        let rules = CustomerIO()
        for payload in [
            Value.object([image]),
            .object([image, ("CIO-Delivery-ID", .string("d1"))]),
            .object([image, ("CIO-Delivery-ID", .string("d1")), ("CIO-Delivery-Token", .number(7))]),
        ] {
            #expect(rules.imageRequests(in: payload).isEmpty)
            #expect(rules.missingCompanionHint(in: payload)?.contains("CIO-Delivery-ID") == true)
            #expect(rules.wouldSend(for: payload).isEmpty)
        }
        let ours = Value.object([image, ("CIO-Delivery-ID", .string("d1")), ("CIO-Delivery-Token", .string("t1"))])
        #expect(rules.imageRequests(in: ours).map(\.url) == ["https://c.test/a.jpg"])
        #expect(rules.missingCompanionHint(in: ours) == nil)
    }

    @Test("the delivered metric goes to the region's CDP host, unless autoTrackPushEvents is off")
    func deliveredMetric() throws {
        let ours = Value.object([("CIO-Delivery-ID", .string("d1")), ("CIO-Delivery-Token", .string("t1"))])
        let metric = try #require(CustomerIO().wouldSend(for: ours).first)
        #expect(metric.method == "POST" && metric.url == "https://cdp.customer.io/v1/track")
        #expect(metric.summary.contains("anonymousId=d1") && metric.summary.contains("properties.recipient=t1"))
        #expect(metric.summary.contains("properties.metric=delivered"))
        #expect(CustomerIO(region: "EU").wouldSend(for: ours).first?.url == "https://cdp-eu.customer.io/v1/track")
        #expect(CustomerIO(autoTrackPushEvents: false).wouldSend(for: ours).isEmpty)
    }

    @Test("the file is UUID_suggestedFilename")
    func naming() throws {
        let file = DownloadedFile(
            url: URL(string: "https://c.test/p/photo.jpg")!, payloadType: nil, name: "UUID", mediaType: nil,
            head: { [] })
        #expect(try CustomerIO().attachmentName(for: file).get().fileName == "UUID_photo.jpg")
        #expect(Vendors.providing(module: "CioMessagingPushFCM")?.name == "customerio")
    }
}
