import Foundation
import RichPushCore
import RichPushServe
import RichPushServeTestSupport
import Testing

/// A request APNs accepts, with `change` applied to its headers.
func apnsRequest(
    method: String = "POST", path: String = "/3/device/\(testToken)", body: [UInt8] = APNsRequestValidatorTests.payload,
    _ change: (inout [String: String]) -> Void = { _ in }, extra: [(String, String)] = []
) -> APNsRequest {
    var headers = [
        "authorization": TestJWT().authorization, "apns-topic": testBundleID, "apns-push-type": "alert",
    ]
    change(&headers)
    let fields = headers.sorted { $0.key < $1.key }.map { (name: $0.key, value: $0.value) }
    return APNsRequest(
        method: method, path: path, headers: fields + extra.map { (name: $0.0, value: $0.1) }, body: body)
}

@Suite("APNs request validation")
struct APNsRequestValidatorTests {
    static let payload = Array(#"{"aps":{"alert":{"title":"Hi","body":"There"}}}"#.utf8)
    static let validator = APNsRequestValidator(
        bundleID: testBundleID, unregisteredTokens: [String(repeating: "CD", count: 32)],
        unregisteredSince: Date(timeIntervalSince1970: 1_700_000_000.25))

    static func reason(_ request: APNsRequest, _ validator: APNsRequestValidator = validator) -> String? {
        if case .rejected(_, let reason, _, _) = validator.validate(request) { return reason.rawValue }
        return nil
    }

    @Test("a well-formed push is accepted with its attributes; a missing apns-id gets a new lowercase UUID")
    func accepted() throws {
        let decision = Self.validator.validate(
            apnsRequest {
                $0["apns-priority"] = "5"
                $0["apns-expiration"] = "0"
                $0["apns-collapse-id"] = "sale"
            })
        guard case .accepted(let attributes, let payload) = decision else {
            Issue.record("rejected: \(decision)")
            return
        }
        #expect(payload == Self.payload)
        #expect(attributes.token == testToken && attributes.topic == testBundleID)
        #expect(attributes.pushType == "alert" && attributes.priority == 5 && attributes.expiration == 0)
        #expect(attributes.collapseID == "sale")
        #expect(UUID(uuidString: attributes.id) != nil && attributes.id == attributes.id.lowercased())
        #expect(attributes.auth?.contains("signature not verified") == true)
    }

    @Test("the request's apns-id is answered back")
    func requestID() {
        let id = "123E4567-E89B-12D3-A456-4266554400A0"
        #expect(Self.validator.validate(apnsRequest { $0["apns-id"] = id }).attributes.id == id)
    }

    static let reasonCases: [ReasonCase] = [
        ReasonCase("BadPath", 404, apnsRequest(path: "/3/devices/\(testToken)")),
        ReasonCase("BadPath", 404, apnsRequest(path: "/2/device/\(testToken)")),
        ReasonCase("MethodNotAllowed", 405, apnsRequest(method: "GET")),
        ReasonCase("MissingDeviceToken", 400, apnsRequest(path: "/3/device/")),
        ReasonCase("BadDeviceToken", 400, apnsRequest(path: "/3/device/\(String(repeating: "zz", count: 32))")),
        ReasonCase("BadDeviceToken", 400, apnsRequest(path: "/3/device/abcdef")),
        ReasonCase("DuplicateHeaders", 400, apnsRequest(extra: [("apns-topic", testBundleID)])),
        ReasonCase("BadMessageId", 400, apnsRequest { $0["apns-id"] = "not-a-uuid" }),
        ReasonCase("InvalidPushType", 400, apnsRequest { $0["apns-push-type"] = "banner" }),
        ReasonCase("BadPriority", 400, apnsRequest { $0["apns-priority"] = "7" }),
        ReasonCase("BadExpirationDate", 400, apnsRequest { $0["apns-expiration"] = "tomorrow" }),
        ReasonCase("BadExpirationDate", 400, apnsRequest { $0["apns-expiration"] = "-5" }),
        ReasonCase("BadCollapseId", 400, apnsRequest { $0["apns-collapse-id"] = String(repeating: "x", count: 65) }),
        ReasonCase("MissingTopic", 400, apnsRequest { $0["apns-topic"] = nil }),
        ReasonCase("BadTopic", 400, apnsRequest { $0["apns-topic"] = "com.example/shop" }),
        ReasonCase("DeviceTokenNotForTopic", 400, apnsRequest { $0["apns-topic"] = "com.other.app" }),
        ReasonCase("TopicDisallowed", 400, apnsRequest { $0["apns-push-type"] = "voip" }),
        ReasonCase("TopicDisallowed", 400, apnsRequest { $0["apns-topic"] = testBundleID + ".voip" }),
        ReasonCase("PayloadEmpty", 400, apnsRequest(body: [])),
        ReasonCase("PayloadEmpty", 400, apnsRequest(body: Array("not json".utf8))),
        ReasonCase("PayloadEmpty", 400, apnsRequest(body: Array("[1]".utf8))),
        ReasonCase("PayloadTooLarge", 413, apnsRequest(body: [UInt8](repeating: 0x20, count: 4050) + payload)),
        ReasonCase("MissingProviderToken", 403, apnsRequest { $0["authorization"] = nil }),
        ReasonCase("InvalidProviderToken", 403, apnsRequest { $0["authorization"] = "bearer abc.def" }),
        ReasonCase("Unregistered", 410, apnsRequest(path: "/3/device/\(String(repeating: "cd", count: 32))")),
    ]

    @Test("each documented reason, with Apple's status", arguments: reasonCases)
    func reasons(_ reasonCase: ReasonCase) {
        let (expected, status) = (reasonCase.reason, reasonCase.status)
        let decision = Self.validator.validate(reasonCase.request)
        guard case .rejected(_, let reason, let detail, _) = decision else {
            Issue.record("accepted, expected \(expected)")
            return
        }
        #expect(reason.rawValue == expected, "\(detail)")
        #expect(reason.status == status)
        #expect(!detail.isEmpty)
    }

    @Test("Unregistered carries the time the token stopped being valid, in milliseconds")
    func unregisteredTimestamp() {
        let decision = Self.validator.validate(apnsRequest(path: "/3/device/\(String(repeating: "cd", count: 32))"))
        guard case .rejected(_, .unregistered, _, let timestamp) = decision else {
            Issue.record("not unregistered: \(decision)")
            return
        }
        #expect(timestamp == 1_700_000_000_250)
    }

    @Test("each push type goes to its own topic; a VoIP push may carry 5 KB, an alert 4 KB")
    func pushTypeTopics() {
        for type in APNsPushType.allCases where type != .mdm {
            let topic = testBundleID + (type.topicSuffix ?? "")
            #expect(
                Self.reason(
                    apnsRequest {
                        $0["apns-push-type"] = type.rawValue; $0["apns-topic"] = topic
                    }) == nil,
                "\(type) to \(topic)")
        }
        let fiveKB = Array(repeating: UInt8(0x20), count: 5000) + Self.payload
        #expect(
            Self.reason(
                apnsRequest(body: fiveKB) {
                    $0["apns-push-type"] = "voip"
                    $0["apns-topic"] = testBundleID + ".voip"
                }) == nil)
        #expect(Self.reason(apnsRequest(body: fiveKB)) == "PayloadTooLarge")
        let exactly4096 = Array(repeating: UInt8(0x20), count: 4096 - Self.payload.count) + Self.payload
        #expect(Self.reason(apnsRequest(body: exactly4096)) == nil)
    }

    @Test("without --bundle-id any well-formed topic fits, but the push type's suffix still counts")
    func withoutBundleID() {
        let open = APNsRequestValidator()
        #expect(Self.reason(apnsRequest { $0["apns-topic"] = "com.other.app" }, open) == nil)
        #expect(
            Self.reason(
                apnsRequest {
                    $0["apns-topic"] = "com.other.app"; $0["apns-push-type"] = "liveactivity"
                }, open)
                == "TopicDisallowed")
        #expect(
            Self.reason(
                apnsRequest {
                    $0["apns-topic"] = "com.other.app.push-type.liveactivity"
                    $0["apns-push-type"] = "liveactivity"
                }, open) == nil)
    }

    @Test("a missing apns-push-type is an alert; a missing priority is 10, or 5 for background pushes")
    func defaults() {
        let alert = Self.validator.validate(apnsRequest { $0["apns-push-type"] = nil }).attributes
        #expect(alert.pushType == "alert" && alert.priority == 10)
        let background = Self.validator.validate(apnsRequest { $0["apns-push-type"] = "background" }).attributes
        #expect(background.priority == 5)
    }

    @Test("paths outside /3/ belong to other endpoints")
    func handles() {
        #expect(APNsRequestValidator.handles(path: "/3/device/abc"))
        #expect(!APNsRequestValidator.handles(path: "/v1/projects/p/messages:send"))
        #expect(!APNsRequestValidator.handles(path: "/richpush/v1/notifications"))
    }
}

struct ReasonCase: Sendable, CustomTestStringConvertible {
    var reason: String
    var status: Int
    var request: APNsRequest

    init(_ reason: String, _ status: Int, _ request: APNsRequest) {
        self.reason = reason
        self.status = status
        self.request = request
    }

    var testDescription: String { "\(reason) (\(request.method) \(request.path.prefix(24)))" }
}
