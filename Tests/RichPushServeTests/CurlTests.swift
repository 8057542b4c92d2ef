import Foundation
import RichPushCore
import RichPushServe
import RichPushServeTestSupport
import Testing

/// The server as curl sees it: `curl --http2 --cacert ca.pem`, the line the docs give senders.
@Suite(
    "Push server with curl --http2", .serialized,
    .enabled(if: curlPath != nil, "curl with HTTP2 support is not installed"))
struct CurlTests {
    struct CurlAnswer {
        var httpVersion: String
        var status: Int
        var headers: [String: String]
        var body: String
    }

    /// Runs curl with `arguments` (after the common ones) and splits its `-i` output.
    static func curl(_ arguments: [String]) async throws -> CurlAnswer {
        let (status, output) = try await runAsync(curlPath!, ["-sS", "-i", "--max-time", "30"] + arguments)
        #expect(status == 0, "curl exited \(status): \(output)")
        let parts = output.components(separatedBy: "\r\n\r\n")
        let headLines = parts[0].components(separatedBy: "\r\n")
        let statusLine = headLines[0].split(separator: " ")
        var headers: [String: String] = [:]
        for line in headLines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        return CurlAnswer(
            httpVersion: statusLine.first.map(String.init) ?? "", status: Int(statusLine.dropFirst().first ?? "") ?? 0,
            headers: headers, body: parts.dropFirst().joined(separator: "\r\n\r\n"))
    }

    static func apnsArguments(
        _ harness: ServeHarness, topic: String = testBundleID, extra: [String] = [], payload: String
    ) -> [String] {
        [
            "--http2", "--cacert", harness.caFile.path,
            "-H", "authorization: bearer \(TestJWT().token)",
            "-H", "apns-topic: \(topic)", "-H", "apns-push-type: alert",
        ] + extra + ["--data-binary", payload, "\(harness.server.baseURL)/3/device/\(testToken)"]
    }

    @Test("curl --http2 with the written CA gets 200 over HTTP/2 and an apns-id; the push arrives rich")
    func accepted() async throws {
        try await withServer { harness in
            let payload =
                #"{"aps":{"alert":{"title":"From curl"},"mutable-content":1},"fcm_options":{"image":"https://fixtures.richpush.test/cat.png"}}"#
            let answer = try await Self.curl(Self.apnsArguments(harness, payload: payload))
            #expect(answer.httpVersion == "HTTP/2")
            #expect(answer.status == 200)
            #expect(answer.headers["apns-id"].flatMap { UUID(uuidString: $0) } != nil)
            let entry = try #require(await harness.nextResult())
            #expect(entry.result.style == .rich && entry.result.content.title == "From curl")
        }
    }

    @Test("a repeated header is DuplicateHeaders; a bad topic is BadTopic, both as JSON over HTTP/2")
    func refusals() async throws {
        try await withServer { harness in
            let duplicate = try await Self.curl(
                Self.apnsArguments(
                    harness, extra: ["-H", "apns-priority: 10", "-H", "apns-priority: 5"], payload: "{}"))
            #expect(duplicate.status == 400 && duplicate.body.contains(#""reason":"DuplicateHeaders""#))
            #expect(duplicate.headers["content-type"] == "application/json")
            let badTopic = try await Self.curl(Self.apnsArguments(harness, topic: "x y", payload: "{}"))
            #expect(badTopic.status == 400 && badTopic.body.contains(#""reason":"BadTopic""#))
        }
    }

    @Test("the inspection API answers curl over HTTP/2")
    func inspection() async throws {
        try await withServer { harness in
            _ = try await Self.curl(Self.apnsArguments(harness, payload: #"{"aps":{"alert":"one"}}"#))
            _ = await harness.nextResult()
            let listed = try await Self.curl([
                "--http2", "--cacert", harness.caFile.path, "\(harness.server.baseURL)/richpush/v1/notifications",
            ])
            #expect(listed.httpVersion == "HTTP/2" && listed.status == 200)
            let json = try JSONParser.parse(Array(listed.body.utf8))
            #expect(json["total"]?.numberValue == 1)
        }
    }

    @Test("--plaintext serves HTTP/2 with prior knowledge (h2c)")
    func plaintext() async throws {
        try await withServer(plaintext: true) { harness in
            #expect(harness.server.caCertificatePEM == nil)
            #expect(harness.server.baseURL.hasPrefix("http://"))
            let answer = try await Self.curl([
                "--http2-prior-knowledge", "-H", "authorization: bearer \(TestJWT().token)",
                "-H", "apns-topic: \(testBundleID)", "--data-binary", #"{"aps":{"alert":"h2c"}}"#,
                "\(harness.server.baseURL)/3/device/\(testToken)",
            ])
            #expect(answer.httpVersion == "HTTP/2" && answer.status == 200)
            #expect(await harness.nextResult()?.result.content.body == "h2c")
        }
    }
}

/// What a sender sees when it goes past the limits: an answer for that request, and the connection keeps serving.
@Suite(
    "Push server limits with curl --http2", .serialized,
    .enabled(if: curlPath != nil, "curl with HTTP2 support is not installed"))
struct CurlLimitTests {
    @Test(
        "a 60 KB header is 431 on its own stream, and the next push on the same connection is 200 (curl's HTTP/2 library sends at most 64 KB of headers)"
    )
    func oversizedHeaderThenNormalPush() async throws {
        try await withServer { harness in
            let common = [
                "--http2", "--cacert", harness.caFile.path, "-H", "authorization: bearer \(TestJWT().token)",
                "-H", "apns-topic: \(testBundleID)", "--data-binary", #"{"aps":{"alert":{"title":"After"}}}"#,
            ]
            let url = "\(harness.server.baseURL)/3/device/\(testToken)"
            let format = "%{http_code} %{num_connects}\\n"
            let (status, output) = try await runAsync(
                curlPath!,
                ["-sS", "-o", "/dev/null", "--max-time", "30", "-w", format]
                    + common + ["-H", "x-large: " + String(repeating: "x", count: 60_000), url]
                    + ["--next", "-sS", "-o", "/dev/null", "-w", format] + common + [url])
            #expect(status == 0, "curl exited \(status): \(output)")
            // Each line: the status, and how many new connections the transfer made (0: it reused the first).
            #expect(output.split(separator: "\n") == ["431 1", "200 0"], "\(output)")
            let snapshot = harness.server.store.snapshot()
            #expect(snapshot.notifications.first?["rejection"]?["reason"] == "RequestHeaderFieldsTooLarge")
            #expect(snapshot.notifications.first?["rejection"]?["detail"]?.stringValue?.contains("16384") == true)
        }
    }
}
