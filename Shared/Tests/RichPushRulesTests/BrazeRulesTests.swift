import Foundation
import RichPushRules
import Testing

@Suite("Braze's rules: the SDK's names")
struct BrazeRulesTests {
    @Test("BrazeNotificationService leads to Braze; its class is subclassed with the module's name; nothing is sent")
    func sdk() throws {
        let sdk = try #require(Braze().sdk)
        #expect(Vendors.providing(module: "BrazeNotificationService")?.name == "braze")
        #expect(sdk.baseClasses == ["BrazeNotificationService.NotificationService"])
        #expect(sdk.pods == ["BrazeNotificationService"] && sdk.packages == ["braze-swift-sdk"])
        let payload = Value.object([
            ("ab", .object([("att", .object([("url", .string("https://a.test/x")), ("type", .string("jpg"))]))]))
        ])
        #expect(Braze().wouldSend(for: payload).isEmpty && Braze().imageRequests(in: payload).first?.type == "jpg")
    }
}
