import AsyncHTTPClient
import Foundation
import RichPushCore
import RichPushServeTestSupport
import Testing

/// `richpush serve --sdk NAME`: every push goes through that vendor's service extension.
@Suite("richpush serve --sdk (the binary)", .serialized)
struct ServeSDKTests {
    @Test("--sdk onesignal: the banner names it; att is read, and a file without a supported extension is dropped")
    func oneSignalPushes() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("richpush-serve-sdk-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let caFile = directory.appendingPathComponent("ca.pem")
        let serve = try ServeProcess([
            "--sdk", "onesignal", "--count", "2", "--format", "jsonl", "--ca-out", caFile.path,
        ])
        let port = try #require(try await serve.port(), "no banner: \(serve.standardError)")
        #expect(serve.standardError.contains("SDK: onesignal, OneSignal (OneSignalAttachmentHandler)"))
        let pem = try String(contentsOf: caFile, encoding: .utf8)
        let attached =
            #"{"aps":{"alert":{"title":"att"},"mutable-content":1},"att":{"id":"https://fixtures.richpush.test/photo.jpg"}}"#
        let untyped =
            #"{"aps":{"alert":{"title":"no extension"},"mutable-content":1},"att":{"id":"https://fixtures.richpush.test/sdk/photo"}}"#
        try await ServeCommandTests.withClient(caPEM: pem) { (client: HTTPClient) async throws in
            #expect(try await ServeCommandTests.push(client, port: port, payload: attached) == 200)
            #expect(try await ServeCommandTests.push(client, port: port, payload: untyped) == 200)
        }
        #expect(try await serve.exitStatus() == 0, "stderr: \(serve.standardError)")
        let results = serve.standardOutput.split(separator: "\n").compactMap { try? JSONParser.parse(Array($0.utf8)) }
        #expect(results.count == 2)
        #expect(results.allSatisfy { $0["sdk"] == .string("onesignal") })
        let rich = results.first { $0["title"] == .string("att") }
        #expect(rich?["style"] == .string("rich"))
        let plain = results.first { $0["title"] == .string("no extension") }
        #expect(plain?["fallback"]?["reason"] == .string("unsupportedImageType"))
    }

    @Test("--sdk all is refused in one line, exit 2: serve emulates one SDK at a time")
    func allIsRefused() async throws {
        let serve = try ServeProcess(["--sdk", "all"])
        #expect(try await serve.exitStatus() == 2)
        #expect(
            serve.standardError
                == "richpush: --sdk all is for replay; serve emulates one SDK at a time (see richpush --help)\n")
    }
}
