import Foundation
import RichPushCore
import RichPushFiles
import RichPushServe
import RichPushServeTestSupport
import RichPushTestSupport
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `serve --record`'s parts, without a server: names, token hashes, the files' contents, the writer that never
/// replaces a file, and the limits.
@Suite("Recording pushes into a replay corpus")
struct RecordingTests {
    /// 2026-11-26T06:12:03Z.
    static let moment = Date(timeIntervalSince1970: 1_795_673_523)
    static let id = "9ce5b9c0-1111-4c3e-9a4e-7d1f0e2a3b4c"

    static func richResult(collapseID: String? = nil) -> DeliveryResult {
        var result = DeliveryResult(
            file: "/3/device/x", appState: .background, extensionInvoked: true, style: .rich,
            imageURL: "https://cdn.example.com/cat.png",
            attachment: Attachment(
                url: "https://cdn.example.com/cat.png", format: .png, width: 2, height: 2, frames: 1, bytes: 1234,
                sha256: String(repeating: "ab", count: 32), file: "/nonexistent"),
            collapseID: collapseID)
        result.transport = .apnsHTTP2
        return result
    }

    static func push(
        _ outcome: RecordedPush.Outcome, id: String = RecordingTests.id, transport: DeliveryTransport = .apnsHTTP2,
        body: String = #"{"aps":{"alert":"Hi","mutable-content":1}}"#, at date: Date = RecordingTests.moment
    ) -> RecordedPush {
        RecordedPush(
            outcome: outcome, transport: transport,
            attributes: APNsAttributes(
                id: id, token: testToken, topic: "com.example.shop", pushType: "alert", priority: 10,
                collapseID: "chat-1"),
            body: Array(body.utf8), method: "POST", path: "/3/device/\(testToken)",
            headers: [("authorization", "bearer SECRET"), ("apns-topic", "com.example.shop"), ("apns-id", id)],
            appState: .background, receivedAt: date)
    }

    /// The expectation file's `given` (parsed as replay parses it) and `expect`.
    static func parse(_ recorded: RecordedPayload) throws -> (given: DeliveryOverrides, expect: JSONObject) {
        let document = try JSONParser.parse(recorded.expectationBytes)
        return (try DeliveryOverrides.parse(given: document["given"] ?? [:]), document["expect"]?.objectValue ?? [:])
    }

    // MARK: Names

    @Test("a name says when (UTC, no colons) and which push: 2026-11-26T06-12-03Z-<apns-id>")
    func nameOfAPush() {
        #expect(RecordingName.base(at: Self.moment, id: Self.id) == "2026-11-26T06-12-03Z-\(Self.id)")
        #expect(RecordingName.isoTime(Self.moment) == "2026-11-26T06:12:03Z")
        #expect(RecordingName.candidate("n", attempt: 0) == "n")
        #expect(RecordingName.candidate("n", attempt: 2) == "n-3")
    }

    @Test(
        "an id with path characters, dots or control characters cannot shape a path",
        arguments: ["../../etc/passwd", "a/b", "..", "x\u{0}y\u{1B}[2Jz\n", "/", "ÿ\u{202E}gnp.exe", "", "0:17%ab"])
    func hostileIDs(id: String) {
        let name = RecordingName.base(at: Self.moment, id: id)
        #expect(!name.contains("/") && !name.contains("..") && !name.contains("\u{0}"))
        #expect(
            name.unicodeScalars.allSatisfy {
                ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) || $0 == "-"
            })
        #expect(name.hasPrefix("2026-11-26T06-12-03Z-"))
    }

    // MARK: Tokens

    static let salt = TokenHash.newSalt()

    @Test("tokens become a stable hash of the same shape: hex stays hex of its length, anything else is not hex")
    func tokenHashes() {
        let hashed = TokenHash.replacing(testToken, salt: Self.salt)
        #expect(hashed != testToken && hashed.count == 64 && hashed.allSatisfy(\.isHexDigit))
        #expect(TokenHash.replacing(testToken, salt: Self.salt) == hashed)
        #expect(TokenHash.replacing(String(testToken.dropLast()), salt: Self.salt).count == 63)
        let fcm = TokenHash.replacing("fGx0:APA91bHsecret", salt: Self.salt)
        #expect(fcm.hasPrefix("t") && fcm.count == 41 && !fcm.contains("APA91"))
        #expect(TokenHash.replacing("", salt: Self.salt) == "")
        #expect(TokenHash.replacing("ab/cd", salt: Self.salt).split(separator: "/").count == 2)
    }

    @Test("two salts hash one token two ways, so two corpora cannot be linked by it")
    func saltsDiffer() {
        let other = TokenHash.newSalt()
        #expect(other != Self.salt)
        #expect(TokenHash.replacing(testToken, salt: Self.salt) != TokenHash.replacing(testToken, salt: other))
    }

    @Test(
        "a refused path keeps the routes' words and hashes every other segment: a token in a mistyped path, an FCM project"
    )
    func pathSegments() {
        let apns = TokenHash.path("/3/devices/\(testToken)?x=1", salt: Self.salt)
        let hashedToken = TokenHash.replacing(testToken, salt: Self.salt)
        #expect(apns == "/3/" + TokenHash.replacing("devices", salt: Self.salt) + "/" + hashedToken)
        #expect(!apns.contains(testToken) && !apns.contains("x=1"))
        let fcm = TokenHash.path("/v1/projects/acme-prod-4711/messages:send", salt: Self.salt)
        #expect(fcm.hasPrefix("/v1/projects/t") && fcm.hasSuffix("/messages:send") && !fcm.contains("acme"))
        #expect(FCMRequestValidator.project(inPath: fcm) != nil)
    }

    @Test("an FCM body that is not JSON keeps its bytes but for every token and fid value, even cut or escaped")
    func redactsUnparsedBody() {
        let hash = { (text: String) in "H" }
        let cases: [(String, String)] = [
            (#"{"message":{"token":"SECRET1","x":1"#, #"{"message":{"token":"H","x":1"#),
            (#"{"message":{"fid" : "SECRET2"}} trailing"#, #"{"message":{"fid" : "H"}} trailing"#),
            (#"{"a":""b", "token": "SECRET3"}"#, #"{"a":""b", "token": "H"}"#),
            (#"{"token":"SECRET4"#, #"{"token":"H""#),
            (#"{"message":{"token":"SEC\"RET5"}"#, #"{"message":{"token":"H"}"#),
        ]
        for (body, expected) in cases {
            let redacted = RecordedPayload.redactingTokens(in: Array(body.utf8), token: hash)
            #expect(String(decoding: redacted, as: UTF8.self) == expected, "\(body)")
        }
    }

    // MARK: The files

    @Test(
        "an accepted push: the body as received, given (app state, SDK, headers, time), expect (style, attachment, fallback)"
    )
    func acceptedPayload() throws {
        let recorded = RecordedPayload(Self.push(.delivered(Self.richResult(collapseID: "chat-1"))), settings: .init())
        #expect(!recorded.isRejection)
        #expect(String(decoding: recorded.payload, as: UTF8.self) == #"{"aps":{"alert":"Hi","mutable-content":1}}"#)
        let expectation = try Self.parse(recorded)
        #expect(expectation.given.appState == .background)
        #expect(expectation.given.headers?.collapseID == "chat-1")
        #expect(expectation.given.headers?.topic == "com.example.shop")
        #expect(expectation.given.recorded?.imageHost == "cdn.example.com")
        #expect(expectation.expect["style"] == "rich")
        #expect(expectation.expect["attachment"] == ["format": "png", "bytes": 1234])
        #expect(expectation.expect["fallback"] == .null)
        #expect(expectation.expect["collapseID"] == "chat-1")
        let text = String(decoding: recorded.expectationBytes, as: UTF8.self)
        #expect(!text.contains("SECRET") && !text.contains(testToken))
    }

    @Test("an FCM message is recorded as the message, its registration token hashed unless kept")
    func fcmToken() throws {
        let body = #"{"message":{"token":"fGx0:APA91bHsecret","notification":{"title":"T","body":"B"}}}"#
        var result = Self.richResult()
        result.transport = .fcmHTTP
        let hashed = RecordedPayload(Self.push(.delivered(result), transport: .fcmHTTP, body: body), settings: .init())
        let text = String(decoding: hashed.payload, as: UTF8.self)
        #expect(!text.contains("APA91bHsecret") && text.contains(#""notification""#))
        let elsewhere = #"{"token":"fGx0:APA91bHroot","message":{"apns":{"fid":"fGx0:APA91bHdeep"}}}"#
        let refused = RecordedPayload(
            Self.push(
                .refused(EndpointRejection(status: 400, reason: "INVALID_ARGUMENT", detail: "")), transport: .fcmHTTP,
                body: elsewhere), settings: .init())
        #expect(!String(decoding: refused.payload, as: UTF8.self).contains("APA91bH"))
        let kept = RecordedPayload(
            Self.push(.delivered(result), transport: .fcmHTTP, body: body), settings: .init(keepsTokens: true))
        #expect(String(decoding: kept.payload, as: UTF8.self).contains("fGx0:APA91bHsecret"))
    }

    @Test("the run's delivery settings are written into given as replay reads them back; the payload's own keys win")
    func runSettingsInGiven() throws {
        var run = DeliveryOverrides(
            imageKeys: [PayloadKeyPath(parsing: "aps.alert.image")!], downloadTimeout: .milliseconds(750),
            extensionBudget: .seconds(25), downloadMaxBytes: 20 << 20)
        run.extensionMemoryBytes = 48 << 20
        run.extensionProcess = .reuse
        run.receiptURL = URL(string: "https://localhost:2197/richpush/v1/receipts")
        var push = Self.push(.delivered(Self.richResult()))
        push.given = ["imageKeys": ["data.image"], "downloadTimeout": "2s"]
        let recorded = RecordedPayload(push, settings: .init(given: run.deliveryGiven))
        let given = try Self.parse(recorded).given
        #expect(given.imageKeys.map(\.description) == ["aps.alert.image", "data.image"])
        #expect(given.downloadTimeout == .seconds(2))
        #expect(given.extensionBudget == .seconds(25))
        #expect(given.downloadMaxBytes == 20 << 20)
        #expect(given.extensionMemoryBytes == 48 << 20)
        #expect(given.extensionProcess == .reuse)
        #expect(given.receiptURL == nil)
        let configuration = given.applied(to: DeliveryConfiguration())
        #expect(configuration.extensionProcess == .reuse && configuration.extensionMemoryBytes == 48 << 20)
    }

    @Test("once --record-max-bytes stops the recording, nothing is written, not even a push queued before that fits")
    func nothingAfterMaxBytes() async throws {
        let folder = try TemporaryFolder()
        let recorder = try PushRecorder(options: .init(directory: folder.path, maxBytes: 4096), note: { _ in })
        let big = #"{"aps":{"alert":"big"},"pad":"\#(String(repeating: "p", count: 4000))"}"#
        // Queued together, before the writer gets to them.
        recorder.record(Self.push(.delivered(Self.richResult()), id: UUID().uuidString.lowercased()))
        recorder.record(Self.push(.delivered(Self.richResult()), id: UUID().uuidString.lowercased(), body: big))
        recorder.record(Self.push(.delivered(Self.richResult()), id: UUID().uuidString.lowercased()))
        await recorder.shutdown()
        #expect(recorder.counts.written == 1 && recorder.counts.notRecorded == 2)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }
        #expect(files.count == 2, "\(files)")
    }

    @Test("a provider-token refusal is counted, not recorded, unless asked for")
    func authRefusalsCounted() async throws {
        let folder = try TemporaryFolder()
        let recorder = try PushRecorder(options: .init(directory: folder.path), note: { _ in })
        let refusal = EndpointRejection(status: 403, reason: "InvalidProviderToken", detail: "")
        recorder.record(Self.push(.refused(refusal)))
        recorder.record(Self.push(.refused(EndpointRejection(status: 400, reason: "BadDeviceToken", detail: ""))))
        await recorder.shutdown()
        #expect(recorder.counts.authRefusals == 1 && recorder.counts.written == 1)

        let asked = try PushRecorder(
            options: .init(directory: folder.path, recordsAuthRefusals: true), note: { _ in })
        asked.record(Self.push(.refused(refusal)))
        await asked.shutdown()
        #expect(asked.counts.authRefusals == 0 && asked.counts.written == 1)
    }

    @Test("a refused push: rejected/ and the reason as the expectation, the request without its authorization")
    func refusedPayload() throws {
        let rejection = EndpointRejection(status: 400, reason: "BadDeviceToken", detail: "")
        let recorded = RecordedPayload(Self.push(.refused(rejection)), settings: .init())
        #expect(recorded.isRejection)
        let expectation = try Self.parse(recorded)
        #expect(expectation.expect["rejected"] == "BadDeviceToken")
        let request = try #require(expectation.given.request)
        #expect(request.headers.map { $0.name } == ["apns-topic", "apns-id"])
        #expect(request.path.hasPrefix("/3/device/") && !request.path.contains(testToken))
        #expect(!String(decoding: recorded.expectationBytes, as: UTF8.self).lowercased().contains("secret"))
    }

    @Test("a recorded refusal is refused again offline for the same reason; a provider-token one says it cannot be")
    func offlineEndpoint() throws {
        let short = String(testToken.dropLast(2))
        var push = Self.push(.refused(EndpointRejection(status: 400, reason: "BadDeviceToken", detail: "")))
        push.path = "/3/device/\(short)"
        let recorded = try Self.parse(RecordedPayload(push, settings: .init()))
        let request = try #require(recorded.given.request)
        #expect(!request.path.contains(short))
        let again = OfflineEndpoint().rejection(of: request, body: push.body, now: Date())
        #expect(again?.reason == "BadDeviceToken")

        let auth = RecordedPayload(
            Self.push(.refused(EndpointRejection(status: 403, reason: "InvalidProviderToken", detail: ""))),
            settings: .init())
        #expect(try Self.parse(auth).given.request?.offline?.contains("secret") == true)
    }

    // MARK: Writing

    @Test(
        "nothing that exists is replaced or followed: a FIFO and a symbolic link where files would go are passed over",
        arguments: [true, false])
    func neverReplaces(startsUnnamed: Bool) throws {
        let folder = try TemporaryFolder()
        let outside = try TemporaryFolder()
        let base = RecordingName.base(at: Self.moment, id: Self.id)
        try folder.fifo("\(base).expect.json")
        #expect(symlink(outside.path + "/target", folder.path + "/\(base)-2.json") == 0)
        let writer = try RecordingFolder.prepare(folder.path, startsUnnamed: startsUnnamed)
        let written = writer.write(
            [(".expect.json", Array("{}".utf8)), (".json", Array("{}".utf8))],
            names: { RecordingName.candidate(base, attempt: $0) })
        #expect(try written.get() == "\(base)-3")
        #expect((try? FileNode.itself(folder.path + "/\(base).expect.json").get())?.kind == .fifo)
        #expect((try? FileNode.itself(folder.path + "/\(base)-2.json").get())?.kind == .symlink)
        #expect(!FileManager.default.fileExists(atPath: outside.path + "/target"))
        // The -2 expectation linked before its payload's name was found taken is removed again: no orphan.
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/\(base)-2.expect.json"))
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(names == ["\(base)-2.json", "\(base)-3.expect.json", "\(base)-3.json", "\(base).expect.json"].sorted())
    }

    @Test("UTC times by arithmetic agree with the calendar's, over leap days, centuries and before 1970")
    func utcTimes() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let moments =
            [-86_401.0, -1, 0, 951_782_400, 951_868_799, 4_107_542_400, 1_795_673_523.9]
            + Array(stride(from: 0.0, to: 4_200_000_000, by: 7_777_777.7))
        for seconds in moments {
            let date = Date(timeIntervalSince1970: seconds)
            let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
            let expected = String(
                format: "%04d-%02d-%02dT%02d-%02d-%02dZ", parts.year!, parts.month!, parts.day!, parts.hour!,
                parts.minute!, parts.second!)
            #expect(RecordingName.stamp(date) == expected, "\(seconds)")
        }
    }

    @Test("a symbolic link in place of rejected/ is refused at start, naming it")
    func symlinkedSubfolder() throws {
        let folder = try TemporaryFolder()
        let outside = try TemporaryFolder()
        #expect(symlink(outside.path, folder.path + "/rejected") == 0)
        #expect(throws: RecordingFolderError.self) {
            _ = try PushRecorder(options: .init(directory: folder.path), note: { _ in })
        }
        do {
            _ = try PushRecorder(options: .init(directory: folder.path), note: { _ in })
        } catch {
            #expect(error.path == folder.path + "/rejected" && error.reason.contains("symbolic link"))
        }
    }

    @Test("a file in place of the folder is refused, naming it")
    func fileInsteadOfFolder() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("corpus", "not a folder")
        do {
            _ = try PushRecorder(options: .init(directory: file), note: { _ in })
            Issue.record("a file was taken as the recording folder")
        } catch {
            #expect(error.path == file && error.reason == "it is not a folder")
        }
    }

    @Test("past --record-max, pushes are not recorded and one note says so; the first N are all written")
    func recordMax() async throws {
        let folder = try TemporaryFolder()
        let notes = Mutex<[String]>([])
        let recorder = try PushRecorder(
            options: .init(directory: folder.path, maxRecordings: 100),
            note: { note in notes.withLock { $0.append(note) } })
        for index in 0..<150 {
            recorder.record(
                Self.push(
                    .delivered(Self.richResult()), id: UUID().uuidString.lowercased(),
                    at: Self.moment.addingTimeInterval(Double(index))))
        }
        await recorder.shutdown()
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }
        #expect(files.filter { !$0.hasSuffix(".expect.json") }.count == 100)
        #expect(files.filter { $0.hasSuffix(".expect.json") }.count == 100)
        let stopped = notes.withLock { $0 }.filter { $0.hasPrefix("recording stopped") }
        #expect(stopped.count == 1)
        #expect(recorder.counts.written == 100 && recorder.counts.notRecorded == 50)
    }

    @Test("past --record-max-bytes recording stops with one note")
    func recordMaxBytes() async throws {
        let folder = try TemporaryFolder()
        let notes = Mutex<[String]>([])
        let recorder = try PushRecorder(
            options: .init(directory: folder.path, maxBytes: 4096), note: { note in notes.withLock { $0.append(note) } }
        )
        for _ in 0..<40 {
            recorder.record(Self.push(.delivered(Self.richResult()), id: UUID().uuidString.lowercased()))
        }
        await recorder.shutdown()
        let counts = recorder.counts
        #expect(counts.written > 0 && counts.written < 40 && counts.bytes <= 4096)
        #expect(notes.withLock { $0 }.filter { $0.hasPrefix("recording stopped") }.count == 1)
    }
}
