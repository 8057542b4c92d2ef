import Foundation
import RichPushCore
import RichPushServeTestSupport
import Testing

@testable import RichPushServe

@Suite("Bounded result store")
struct ResultStoreTests {
    static func entry(_ body: String) -> ServedNotification {
        ServedNotification(status: 200, result: DeliveryResult(file: body, appState: .background, style: .plain))
    }

    @Test("only the newest results are kept, oldest first, numbered in order; the rest are counted as dropped")
    func ring() throws {
        let store = ResultStore(capacity: 10)
        for index in 1...25 { store.record(Self.entry("\(index)"), endingDelivery: false) }
        let snapshot = store.snapshot()
        #expect(snapshot.notifications.map { $0["file"]?.stringValue } == (16...25).map { "\($0)" })
        #expect(snapshot.notifications.map { $0["sequence"]?.numberValue } == (16...25).map { Double($0) })
        // The answer is the kept results as JSON, in order, under the counts.
        let answer = try #require(try? JSONParser.parse(snapshot.json))
        #expect(answer["total"]?.numberValue == 25 && answer["dropped"]?.numberValue == 15)
        guard case .array(let listed)? = answer["notifications"] else {
            Issue.record("no notifications: \(answer)")
            return
        }
        #expect(listed == snapshot.notifications)
        // Answered in pieces made as they are written; together they are the same document.
        let pieces = Array(snapshot.jsonChunks(of: 500))
        #expect(pieces.count > 5)
        #expect(Array(pieces.joined()) == snapshot.json)
        #expect(snapshot.total == 25 && snapshot.dropped == 15 && snapshot.capacity == 10)
        store.removeAll()
        #expect(store.snapshot().notifications.isEmpty && store.snapshot().total == 0)
    }

    /// The text is written before the store's lock and completed with its sequence number under it; what is kept
    /// must be exactly what JSONWriter makes of the whole numbered result.
    @Test("each kept text is the numbered result's JSON, byte for byte")
    func keptTextIsTheWholeJSON() {
        let store = ResultStore(capacity: 3)
        var recorded: [ServedNotification] = []
        for index in 1...1_002 {
            let numbered = store.record(Self.entry("payloads/\(index).json"), endingDelivery: false)
            recorded.append(numbered)
        }
        let kept = store.snapshot().entries.map { String(decoding: $0, as: UTF8.self) }
        #expect(kept == recorded.suffix(3).map { JSONWriter.string($0.jsonValue) })
        #expect(kept.last?.hasSuffix(#","sequence":1002}"#) == true, "\(kept.last ?? "")")
    }

    @Test("deliveries in flight are counted until their result is recorded")
    func inFlight() {
        let store = ResultStore(capacity: 10)
        store.beginDelivery()
        store.beginDelivery()
        #expect(store.snapshot().inFlight == 2)
        store.record(Self.entry("a"), endingDelivery: true)
        #expect(store.snapshot().inFlight == 1 && store.snapshot().total == 1)
    }
}

@Suite("FCM request validation")
struct FCMRequestValidatorTests {
    static let validator = FCMRequestValidator(unregisteredTokens: ["gone"])
    static let path = "/v1/projects/p1/messages:send"

    static func code(_ body: String, path: String = path, authorization: String? = "Bearer t") -> String? {
        switch validator.validate(method: "POST", path: path, authorization: authorization, body: Array(body.utf8)) {
        case .success: nil
        case .failure(let error): error.errorCode ?? error.status
        }
    }

    @Test("a message with one target is valid; its APNs headers are read")
    func valid() throws {
        let body =
            #"{"message":{"topic":"news","apns":{"headers":{"apns-priority":"5","apns-push-type":"background"}}}}"#
        let info = try Self.validator.validate(
            method: "POST", path: Self.path, authorization: "Bearer t", body: Array(body.utf8)
        ).get()
        #expect(info.project == "p1" && info.topic == "news" && !info.validateOnly)
        #expect(info.apnsHeaders["apns-priority"] == "5" && info.apnsHeaders["apns-push-type"] == "background")
    }

    @Test("a Firebase Installation ID (fid) is a device target, as a registration token is")
    func fid() throws {
        let body = #"{"message":{"fid":"f-1","notification":{"title":"x"}}}"#
        let info = try Self.validator.validate(
            method: "POST", path: Self.path, authorization: "Bearer t", body: Array(body.utf8)
        ).get()
        #expect(info.token == "f-1" && info.topic == nil)
    }

    @Test(
        "invalid requests",
        arguments: [
            (#"{"message":{"token":"a","topic":"b"}}"#, "INVALID_ARGUMENT"),
            (#"{"message":{"fid":"a","token":"b"}}"#, "INVALID_ARGUMENT"),
            (#"{"message":{"fid":"gone","notification":{"title":"x"}}}"#, "UNREGISTERED"),
            (#"{"message":{"token":7}}"#, "INVALID_ARGUMENT"),
            (#"{"message":{"token":"a"},"validate_only":"yes"}"#, "INVALID_ARGUMENT"),
            (#"{"token":"a"}"#, "INVALID_ARGUMENT"),
            (#"[]"#, "INVALID_ARGUMENT"),
            (#"{"message":{"token":"gone","notification":{"title":"x"}}}"#, "UNREGISTERED"),
        ])
    func invalid(body: String, expected: String) {
        #expect(Self.code(body) == expected)
    }

    @Test("wrong paths are NOT_FOUND; no bearer token is UNAUTHENTICATED")
    func pathsAndAuth() {
        #expect(Self.code(#"{"message":{"token":"a"}}"#, path: "/v1/projects/p1/messages") == "NOT_FOUND")
        #expect(Self.code(#"{"message":{"token":"a"}}"#, path: "/v1/projects//messages:send") == "NOT_FOUND")
        #expect(Self.code(#"{"message":{"token":"a"}}"#, authorization: nil) == "UNAUTHENTICATED")
        #expect(Self.code(#"{"message":{"token":"a"}}"#, authorization: "Bearer ") == "UNAUTHENTICATED")
        #expect(Self.code(#"{"message":{"token":"a"}}"#) == nil)
    }
}
