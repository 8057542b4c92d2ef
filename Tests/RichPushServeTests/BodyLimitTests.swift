import Foundation
import NIOHTTP1
import RichPushCore
import RichPushServe
import RichPushServeTestSupport
import Testing

@Suite("Bodies over the limit get Apple's and Google's answers, whatever their size")
struct BodyLimitTests {
    @Test("APNs bodies of 5,000 B, 70,000 B, 140,000 B and 1 MB are 413 PayloadTooLarge over HTTP/2, and recorded")
    func apnsBodies() async throws {
        try await withServer { harness in
            for size in [5_000, 70_000, 140_000, 1_000_000] {
                let payload =
                    #"{"aps":{"alert":{"title":"Big"}},"pad":""# + String(repeating: "p", count: size) + #""}"#
                let answer = try await harness.push(payload: payload)
                #expect(answer.version == .http2)
                #expect(answer.status == 413, "\(size) B: \(answer.body)")
                #expect(answer.json?["reason"]?.stringValue == "PayloadTooLarge", "\(size) B: \(answer.body)")
            }
            let rejections = harness.server.store.snapshot().notifications.map {
                $0["rejection"]?["reason"]?.stringValue
            }
            #expect(rejections == Array(repeating: "PayloadTooLarge", count: 4))
        }
    }

    /// A payload of exactly `size` bytes.
    static func payload(_ size: Int) -> String {
        let head = #"{"aps":{"alert":{"title":"V"}},"pad":""#
        return head + String(repeating: "p", count: size - head.utf8.count - 2) + #""}"#
    }

    @Test("a VoIP push may be 5,120 B; 5,121 B is too large, and so is a 4,097 B alert")
    func perPushTypeLimits() async throws {
        try await withServer { harness in
            let voip: (inout [String: String]) -> Void = {
                $0["apns-push-type"] = "voip"
                $0["apns-topic"] = testBundleID + ".voip"
            }
            let answers = [
                try await harness.push(payload: Self.payload(5_120), voip).status,
                try await harness.push(payload: Self.payload(5_121), voip).status,
                try await harness.push(payload: Self.payload(4_096)).status,
                try await harness.push(payload: Self.payload(4_097)).status,
            ]
            #expect(answers == [200, 413, 200, 413])
        }
    }

    @Test("an FCM message over 64 KB is Google's INVALID_ARGUMENT, not a parse error of a cut body")
    func fcmBody() async throws {
        try await withServer { harness in
            let message =
                #"{"message":{"token":"abc","notification":{"title":"Big"},"data":{"pad":""#
                + String(repeating: "p", count: 70_000) + #""}}}"#
            let answer = try await harness.send(
                .POST, "/v1/projects/demo/messages:send",
                headers: [("authorization", "Bearer token"), ("content-type", "application/json")], body: message)
            #expect(answer.status == 400)
            #expect(answer.json?["error"]?["status"]?.stringValue == "INVALID_ARGUMENT")
            guard case .array(let details)? = answer.json?["error"]?["details"] else {
                Issue.record("no details: \(answer.body)")
                return
            }
            #expect(details.first?["errorCode"]?.stringValue == "INVALID_ARGUMENT")
            #expect(answer.json?["error"]?["message"]?.stringValue?.contains("4096") == true, "\(answer.body)")
        }
    }
}
