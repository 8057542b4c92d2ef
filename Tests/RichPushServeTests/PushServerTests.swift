import AsyncHTTPClient
import Foundation
import NIOHTTP1
import RichPushCore
import RichPushServe
import RichPushServeTestSupport
import Testing

@Suite("Push server over HTTP/2 (async-http-client)", .serialized)
struct PushServerTests {
    @Test("an accepted push is answered 200 over HTTP/2 with its apns-id, and arrives rich with the fixture image")
    func richPush() async throws {
        try await withServer { harness in
            let id = "7f1c0d5e-2a3b-4c5d-8e9f-0a1b2c3d4e5f"
            let payload = #"""
                {"aps":{"alert":{"title":"New arrivals","body":"Tap to see"},"mutable-content":1},
                 "fcm_options":{"image":"https://fixtures.richpush.test/cat.png"}}
                """#
            let answer = try await harness.push(payload: payload) {
                $0["apns-id"] = id
                $0["apns-collapse-id"] = "sale"
                $0["apns-priority"] = "5"
            }
            #expect(answer.status == 200)
            #expect(answer.version == .http2)
            #expect(answer.headers.first(name: "apns-id") == id)
            #expect(answer.body.isEmpty)

            let entry = try #require(await harness.nextResult())
            #expect(entry.transport == .apnsHTTP2 && entry.status == 200)
            #expect(entry.result.style == .rich)
            #expect(entry.result.attachment?.format == .png)
            #expect(entry.result.appState == .background)
            #expect(entry.apns.id == id && entry.apns.token == testToken && entry.apns.topic == testBundleID)
            #expect(entry.apns.priority == 5 && entry.apns.collapseID == "sale")
            #expect(entry.result.collapseID == "sale")
            #expect(entry.apns.auth?.contains("signature not verified") == true)

            // Progress for front ends that show pushes in flight: the limits first, then the download.
            let progress = harness.results.progress(of: id)
            guard case .limits? = progress.first else {
                Issue.record("progress does not start with the limits: \(progress)")
                return
            }
            #expect(
                progress.contains { if case .event(let event) = $0 { event.kind == .downloadFinished } else { false } })
        }
    }

    @Test("without an apns-id the answer carries a new lowercase UUID")
    func newID() async throws {
        try await withServer { harness in
            let answer = try await harness.push()
            let id = try #require(answer.headers.first(name: "apns-id"))
            #expect(UUID(uuidString: id) != nil && id == id.lowercased())
            #expect(await harness.nextResult()?.apns.id == id)
        }
    }

    @Test("refusals carry Apple's status, a JSON reason, the apns-id, and are recorded as rejected entries")
    func refusals() async throws {
        try await withServer { harness in
            let cases: [(String, Int, ServeHarness.Answer)] = [
                ("BadTopic", 400, try await harness.push { $0["apns-topic"] = "com.example/shop" }),
                ("DeviceTokenNotForTopic", 400, try await harness.push { $0["apns-topic"] = "com.other.app" }),
                ("TopicDisallowed", 400, try await harness.push { $0["apns-push-type"] = "voip" }),
                ("MissingTopic", 400, try await harness.push { $0["apns-topic"] = nil }),
                ("BadPriority", 400, try await harness.push { $0["apns-priority"] = "11" }),
                ("BadMessageId", 400, try await harness.push { $0["apns-id"] = "42" }),
                ("BadExpirationDate", 400, try await harness.push { $0["apns-expiration"] = "soon" }),
                ("InvalidPushType", 400, try await harness.push { $0["apns-push-type"] = "popup" }),
                (
                    "BadCollapseId", 400,
                    try await harness.push { $0["apns-collapse-id"] = String(repeating: "c", count: 65) }
                ),
                ("BadDeviceToken", 400, try await harness.push(token: "12345")),
                ("MissingProviderToken", 403, try await harness.push { $0["authorization"] = nil }),
                ("InvalidProviderToken", 403, try await harness.push { $0["authorization"] = "bearer x.y.z" }),
                (
                    "ExpiredProviderToken", 403,
                    try await harness.push {
                        $0["authorization"] = TestJWT(issuedAt: Date().addingTimeInterval(-7200)).authorization
                    }
                ),
                ("PayloadEmpty", 400, try await harness.push(payload: "")),
                ("PayloadTooLarge", 413, try await harness.push(payload: String(repeating: " ", count: 5000) + "{}")),
                ("BadPath", 404, try await harness.send(.POST, "/3/notdevice/\(testToken)", body: "{}")),
                ("MethodNotAllowed", 405, try await harness.send(.GET, "/3/device/\(testToken)")),
            ]
            for (reason, status, answer) in cases {
                #expect(answer.status == status, "\(reason)")
                #expect(answer.headers.first(name: "content-type") == "application/json", "\(reason)")
                #expect(answer.json?["reason"]?.stringValue == reason, "\(reason): \(answer.body)")
                #expect(answer.headers.first(name: "apns-id").flatMap { UUID(uuidString: $0) } != nil, "\(reason)")
            }
            let snapshot = harness.server.store.snapshot()
            #expect(snapshot.notifications.map { $0["rejection"]?["reason"]?.stringValue } == cases.map { $0.0 })
            #expect(snapshot.notifications.allSatisfy { $0["delivered"] == .bool(false) && $0["style"] == "silent" })
        }
    }

    @Test("a push to an --unregistered token is 410 with a timestamp in milliseconds")
    func unregistered() async throws {
        let before = Date().timeIntervalSince1970 * 1000
        try await withServer { harness in
            let answer = try await harness.push(token: unregisteredToken)
            #expect(answer.status == 410)
            #expect(answer.json?["reason"]?.stringValue == "Unregistered")
            let timestamp = try #require(answer.json?["timestamp"]?.numberValue)
            #expect(timestamp >= before.rounded(.down) && timestamp <= Date().timeIntervalSince1970 * 1000)
            #expect(timestamp == timestamp.rounded())
        }
    }

    @Test("with --auth-key, a token signed by another key is refused and one signed by the team's key accepted")
    func verifiedSignatures() async throws {
        try await withServer(signingKey: TestKeys.signingKey) { harness in
            let forged = try await harness.push { $0["authorization"] = TestJWT(key: TestKeys.otherKey).authorization }
            #expect(forged.status == 403 && forged.json?["reason"]?.stringValue == "InvalidProviderToken")
            var der = TestJWT()
            der.derSignature = true
            let accepted = try await harness.push { $0["authorization"] = der.authorization }
            #expect(accepted.status == 200)
            let entries = [await harness.nextResult(), await harness.nextResult()]
            #expect(entries.compactMap { $0?.apns.auth }.contains { $0.hasSuffix("signature verified") })
        }
    }

    @Test("the inspection API lists results oldest first with its cap, and DELETE clears them")
    func inspection() async throws {
        try await withServer(capacity: 3) { harness in
            for index in 1...4 {
                let answer = try await harness.push(payload: #"{"aps":{"alert":"push \#(index)"}}"#)
                #expect(answer.status == 200)
                _ = await harness.nextResult()
            }
            let listed = try await harness.send(.GET, "/richpush/v1/notifications")
            #expect(listed.status == 200)
            #expect(listed.headers.first(name: "content-type") == "application/json")
            let json = try #require(listed.json)
            #expect(json["capacity"]?.numberValue == 3)
            #expect(json["total"]?.numberValue == 4 && json["dropped"]?.numberValue == 1)
            guard case .array(let notifications)? = json["notifications"] else {
                Issue.record("no notifications array: \(listed.body)")
                return
            }
            #expect(notifications.map { $0["body"]?.stringValue } == ["push 2", "push 3", "push 4"])
            #expect(notifications.allSatisfy { $0["transport"]?.stringValue == "apnsHTTP2" })
            #expect(notifications.first?["apns"]?["token"]?.stringValue == testToken)

            let cleared = try await harness.send(.DELETE, "/richpush/v1/notifications")
            #expect(cleared.status == 204)
            let empty = try await harness.send(.GET, "/richpush/v1/notifications")
            guard case .array(let after)? = empty.json?["notifications"] else {
                Issue.record("no notifications array: \(empty.body)")
                return
            }
            #expect(after.isEmpty)
        }
    }

    @Test("a body that is not a JSON dictionary is PayloadEmpty (Apple documents no closer reason), and recorded")
    func notJSON() async throws {
        try await withServer { harness in
            for body in ["hello", "[1, 2]"] {
                let answer = try await harness.push(payload: body)
                #expect(answer.status == 400)
                #expect(answer.json?["reason"]?.stringValue == "PayloadEmpty")
                let entry = try #require(await harness.nextResult())
                #expect(entry.endpointRejection?.detail.contains("not JSON") == true || body.hasPrefix("["))
                #expect(!entry.result.delivered)
            }
        }
    }
}

@Suite("FCM HTTP v1 endpoint", .serialized)
struct FCMEndpointTests {
    static let path = "/v1/projects/demo-project/messages:send"
    static let bearer = ("authorization", "Bearer ya29.any-token")

    @Test("a message is answered with its name and arrives rich through the FCM translation")
    func success() async throws {
        try await withServer { harness in
            let body = #"""
                {"message":{"token":"fcm-token-1","notification":{"title":"Sale","body":"50% off",
                 "image":"https://fixtures.richpush.test/cat.png"},
                 "apns":{"payload":{"aps":{"mutable-content":1}},"headers":{"apns-collapse-id":"promo"}}}}
                """#
            let answer = try await harness.send(.POST, Self.path, headers: [Self.bearer], body: body)
            #expect(answer.status == 200)
            let name = try #require(answer.json?["name"]?.stringValue)
            #expect(name.hasPrefix("projects/demo-project/messages/"))
            let entry = try #require(await harness.nextResult())
            #expect(entry.transport == .fcmHTTP)
            #expect(entry.result.source == .fcmV1 && entry.result.style == .rich)
            #expect(entry.result.content.title == "Sale")
            #expect(entry.apns.token == "fcm-token-1" && entry.apns.collapseID == "promo")
            #expect(name.hasSuffix(entry.apns.id))
        }
    }

    @Test("validate_only answers like a send and shows nothing")
    func validateOnly() async throws {
        try await withServer { harness in
            let body = #"{"message":{"token":"t","notification":{"title":"Dry run"}},"validate_only":true}"#
            let answer = try await harness.send(.POST, Self.path, headers: [Self.bearer], body: body)
            #expect(answer.status == 200)
            #expect(answer.json?["name"]?.stringValue == "projects/demo-project/messages/fake_message_id")
            // A real push after it is the first and only result.
            _ = try await harness.send(
                .POST, Self.path, headers: [Self.bearer],
                body: #"{"message":{"token":"t","notification":{"title":"Real"}}}"#)
            #expect(await harness.nextResult()?.result.content.title == "Real")
            #expect(harness.server.store.snapshot().total == 1)
        }
    }

    @Test("errors use Google's shape: INVALID_ARGUMENT (400) and UNREGISTERED (404)")
    func errors() async throws {
        try await withServer { harness in
            let big = String(repeating: "x", count: 5000)
            let cases: [(String, Int, String)] = [
                ("INVALID_ARGUMENT", 400, "{not json"),
                ("INVALID_ARGUMENT", 400, #"{"message":{"notification":{"title":"no target"}}}"#),
                ("INVALID_ARGUMENT", 400, #"{"message":{"token":"t","notification":{"title":"\#(big)"}}}"#),
                ("UNREGISTERED", 404, #"{"message":{"token":"\#(unregisteredToken)","notification":{"title":"x"}}}"#),
            ]
            for (code, status, body) in cases {
                let answer = try await harness.send(.POST, Self.path, headers: [Self.bearer], body: body)
                #expect(answer.status == status, "\(code): \(answer.body)")
                #expect(answer.headers.first(name: "content-type") == "application/json")
                let error = answer.json?["error"]
                #expect(error?["code"]?.numberValue == Double(status))
                #expect(error?["status"]?.stringValue == (status == 404 ? "NOT_FOUND" : "INVALID_ARGUMENT"))
                guard case .array(let details)? = error?["details"] else {
                    Issue.record("no details: \(answer.body)")
                    continue
                }
                #expect(details.first?["@type"]?.stringValue == "type.googleapis.com/google.firebase.fcm.v1.FcmError")
                #expect(details.first?["errorCode"]?.stringValue == code)
            }
            let missingAuth = try await harness.send(
                .POST, Self.path, body: #"{"message":{"token":"t","notification":{"title":"x"}}}"#)
            #expect(
                missingAuth.status == 401 && missingAuth.json?["error"]?["status"]?.stringValue == "UNAUTHENTICATED")
            #expect(
                harness.server.store.snapshot().notifications.map { $0["rejection"]?["reason"]?.stringValue } == [
                    "INVALID_ARGUMENT", "INVALID_ARGUMENT", "INVALID_ARGUMENT", "UNREGISTERED", "UNAUTHENTICATED",
                ])
        }
    }
}
