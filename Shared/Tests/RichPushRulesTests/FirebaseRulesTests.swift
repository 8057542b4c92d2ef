import Foundation
import RichPushRules
import Testing

@Suite("Firebase's rules: the SDK's names and the delivery metrics it would send")
struct FirebaseRulesTests {
    let keys: [(String, Value)] = [
        ("google.c.sender.id", .string("449451107265")), ("gcm.message_id", .string("1700000000000001")),
        ("google.c.fid", .string("fid-abc")),
    ]

    @Test("the payload's three keys: one event for BigQuery, queued for firebaselogging's batch upload")
    func deliveryMetrics() throws {
        let payload = Value.object(keys + [("google.c.a.c_id", .string("42")), ("google.c.a.m_l", .string("spring"))])
        let sent = Firebase().wouldSend(for: payload)
        #expect(sent.count == 1)
        let event = try #require(sent.first)
        #expect(event.method == "POST" && event.url == "https://firebaselogging.googleapis.com/v0cc/log/batch")
        let fields = Dictionary(event.fields, uniquingKeysWith: { first, _ in first })
        #expect(fields["project_number"] == "449451107265" && fields["message_id"] == "1700000000000001")
        #expect(fields["instance_id"] == "fid-abc" && fields["event"] == "MESSAGE_DELIVERED")
        #expect(fields["campaign_id"] == "42" && fields["analytics_label"] == "spring")
        #expect(event.note?.contains("exportDeliveryMetricsToBigQuery") == true)
    }

    @Test("any of the three missing, or an id that is not a string: nothing is sent")
    func preconditions() {
        for index in keys.indices {
            var partial = keys
            partial.remove(at: index)
            #expect(Firebase().wouldSend(for: Value.object(partial)).isEmpty, "without \(keys[index].0)")
        }
        var numbered = keys
        numbered[1] = ("gcm.message_id", .number(1))
        #expect(Firebase().wouldSend(for: Value.object(numbered)).isEmpty)
    }

    @Test("the modules of every generation lead to Firebase; no base class")
    func sdk() throws {
        let sdk = try #require(Firebase().sdk)
        for module in ["FirebaseMessaging", "Firebase", "FirebaseCore"] {
            #expect(Vendors.providing(module: module)?.name == "firebase", "\(module)")
        }
        #expect(sdk.baseClasses.isEmpty && sdk.packages == ["firebase-ios-sdk"] && sdk.pods.contains("Firebase"))
    }
}
