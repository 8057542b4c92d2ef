import AsyncHTTPClient
import Foundation
import NIOCore
import RichPushCore
import RichPushServeTestSupport
import Testing

/// `richpush serve --receipt-url` on its own receipts endpoint, through the binary.
@Suite struct ServeReceiptCommandTests {
    @Test(
        "richpush serve --receipt-url https://127.0.0.1:PORT/richpush/v1/receipts: the push's receipt reaches serve itself and is listed"
    )
    func serveBinaryReceipt() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("richpush-serve-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let caFile = directory.appendingPathComponent("ca.pem")
        let port = try freeLoopbackPort()
        let receiptURL = "https://127.0.0.1:\(port)/richpush/v1/receipts"
        let serve = try ServeProcess(
            ["--format", "jsonl", "--ca-out", caFile.path, "--bundle-id", testBundleID, "--receipt-url", receiptURL],
            port: port)
        defer { if serve.process.isRunning { serve.process.terminate() } }
        #expect(try await serve.port() == port, "no banner: \(serve.standardError)")
        #expect(serve.standardError.contains("Receipts: POST/GET https://localhost:\(port)/richpush/v1/receipts"))
        let pem = try String(contentsOf: caFile, encoding: .utf8)
        let payload =
            #"{"aps":{"alert":{"title":"Poster","push_id":"p-7"},"mutable-content":1},"fcm_options":{"image":"https://fixtures.richpush.test/cat.png"}}"#
        try await ServeCommandTests.withClient(caPEM: pem) { (client: HTTPClient) async throws in
            #expect(try await ServeCommandTests.push(client, port: port, payload: payload) == 200)
            let first = await serve.firstOutputLine()
            let line = try #require(try? JSONParser.parse(Array(first.utf8)), "\(serve.standardOutput)")
            #expect(line["receipt"]?["status"]?.numberValue == 200, "\(serve.standardOutput)")
            #expect(line["receipt"]?["pushID"]?.stringValue == "p-7")

            let response = try await client.execute(
                HTTPClientRequest(url: "https://localhost:\(port)/richpush/v1/receipts"), timeout: .seconds(30))
            let json = try JSONParser.parse(Array(buffer: try await response.body.collect(upTo: 1 << 20)))
            let receipt = try #require(json["receipts"]?.arrayValue?.first, "\(json)")
            #expect(json["total"]?.numberValue == 1)
            #expect(receipt["pushID"]?.stringValue == "p-7")
            #expect(receipt["headers"]?["user-agent"]?.stringValue == "richpush/\(RichPushVersion.current)")
        }
        serve.process.terminate()
        #expect(try await serve.exitStatus() == 0, "stderr: \(serve.standardError)")
    }

}
