import Foundation
import RichPushRules
import Testing

@Suite("OneSignal's rules: the SDK's names and the confirmed-delivery receipt")
struct OneSignalRulesTests {
    @Test("custom.i (the original format) or os_data.i: one PUT report_received, with its conditions")
    func receipt() throws {
        let original = Value.object([("custom", .object([("i", .string("7f1c")), ("a", .object([]))]))])
        let receipt = try #require(OneSignal().wouldSend(for: original).first)
        #expect(
            receipt.method == "PUT" && receipt.url == "https://api.onesignal.com/notifications/7f1c/report_received")
        #expect(receipt.fields.map(\.0) == ["app_id", "player_id", "device_type"] && receipt.fields.last?.1 == "0")
        #expect(receipt.note?.contains("OneSignal_app_groups_key") == true)
        #expect(receipt.note?.contains("0-24 s") == true)
        let newer = Value.object([
            ("os_data", .object([("i", .string("9d2e"))])), ("custom", .object([("i", .string("ignored"))])),
        ])
        #expect(
            OneSignal().wouldSend(for: newer).map(\.url) == [
                "https://api.onesignal.com/notifications/9d2e/report_received"
            ])
    }

    @Test("no notification id, or an empty one: no receipt")
    func noReceipt() {
        #expect(
            OneSignal().wouldSend(for: Value.object([("att", .object([("id", .string("https://a.test/x.jpg"))]))]))
                .isEmpty)
        #expect(OneSignal().wouldSend(for: Value.object([("custom", .object([("i", .string(""))]))])).isEmpty)
        #expect(OneSignal().wouldSend(for: Value.object([("custom", .object([("i", .number(3))]))])).isEmpty)
    }

    @Test("both generations' modules lead to OneSignal; no base class")
    func sdk() throws {
        let sdk = try #require(OneSignal().sdk)
        #expect(Vendors.providing(module: "OneSignalExtension")?.name == "onesignal")
        #expect(Vendors.providing(module: "OneSignal")?.name == "onesignal")
        #expect(sdk.baseClasses.isEmpty && sdk.pods.contains("OneSignalXCFramework"))
    }
}
