import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOSSL
import RichPushCore
import RichPushNetwork
import RichPushServe
import Synchronization
import RichPushServeTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A server whose emulated phone sends its display receipts to the server's own receipts endpoint.
func withReceiptServer<T>(receiptCapacity: Int = 100, _ body: (ServeHarness) async throws -> T) async throws -> T {
    try await withServer(receipts: true, receiptCapacity: receiptCapacity, body)
}

@Suite("serve: display receipts at /richpush/v1/receipts", .serialized)
struct ReceiptEndpointTests {
    @Test(
        "a push through the APNs endpoint with --receipt-url on serve's own endpoint: GET /richpush/v1/receipts shows the phone's receipt"
    )
    func pushReportsDisplay() async throws {
        try await withReceiptServer { harness in
            let payload = #"""
                {"aps":{"alert":{"title":"Sale","body":"50% off","push_id":"campaign 42/ü"},"mutable-content":1},
                 "fcm_options":{"image":"https://fixtures.richpush.test/cat.png"}}
                """#
            let answer = try await harness.push(payload: payload)
            #expect(answer.status == 200 && answer.version == .http2)

            let entry = try #require(await harness.nextResult())
            #expect(entry.result.style == .rich)
            let report = try #require(entry.result.receipt, "no receipt in the result")
            #expect(report.pushID == "campaign 42/ü")
            #expect(report.status == 200, "receipt error: \(report.error ?? "none")")
            #expect(report.url == "https://localhost:\(harness.server.port)/richpush/v1/receipts")

            let listing = try await harness.send(.GET, "/richpush/v1/receipts")
            #expect(listing.status == 200)
            #expect(listing.headers.first(name: "content-type") == "application/json")
            let json = try #require(listing.json)
            #expect(json["total"]?.numberValue == 1 && json["dropped"]?.numberValue == 0)
            #expect(json["capacity"]?.numberValue == 100)
            let receipt = try #require(json["receipts"]?.arrayValue?.first)
            #expect(receipt["method"]?.stringValue == "POST")
            #expect(receipt["target"]?.stringValue == "/richpush/v1/receipts")
            #expect(receipt["pushID"]?.stringValue == "campaign 42/ü")
            #expect(receipt["body"]?.stringValue == "push_id=campaign+42%2F%C3%BC")
            #expect(receipt["headers"]?["content-type"]?.stringValue == "application/x-www-form-urlencoded")
            #expect(receipt["headers"]?["user-agent"]?.stringValue == "richpush/\(RichPushVersion.current)")
            let receivedAt = try #require(receipt["receivedAt"]?.stringValue)
            #expect((try? Date(receivedAt, strategy: .iso8601)) != nil, "not ISO 8601: \(receivedAt)")
        }
    }

    @Test(
        "the start order: a push accepted before the deliveries start is answered 200 at once, waits, and once they start arrives rich with its receipt to serve's own endpoint"
    )
    func pushBeforeDeliveriesStart() async throws {
        try await withServer(receipts: true, startingDeliveries: false) { harness in
            let payload = #"""
                {"aps":{"alert":{"title":"Early","body":"before the system","push_id":"early"},"mutable-content":1},
                 "fcm_options":{"image":"https://fixtures.richpush.test/cat.png"}}
                """#
            let id = "0e9a5c1e-6f3b-4d2a-9c8e-7b6a5d4c3b2a"
            let answer = try await harness.push(payload: payload) { $0["apns-id"] = id }
            #expect(answer.status == 200)
            let waiting = try #require(try await harness.send(.GET, "/richpush/v1/notifications").json)
            #expect(waiting["inFlight"]?.numberValue == 1 && waiting["total"]?.numberValue == 0)
            // Not begun: a delivery reports its limits first thing, and none was reported.
            #expect(harness.results.progress(of: id).isEmpty)

            harness.startDeliveries()
            let entry = try #require(await harness.nextResult())
            #expect(entry.result.style == .rich)
            let receipt = try #require(entry.result.receipt, "no receipt in the result")
            #expect(receipt.status == 200, "receipt error: \(receipt.error ?? "none")")
            let receipts = try #require(try await harness.send(.GET, "/richpush/v1/receipts").json)
            #expect(receipts["receipts"]?.arrayValue?.first?["pushID"]?.stringValue == "early")
        }
    }

    @Test("a server stopped before its deliveries start ends at once and leaves no push counted in flight")
    func stopBeforeDeliveriesStart() async throws {
        try await withServer(startingDeliveries: false) { harness in
            let payload = #"{"aps":{"alert":{"title":"Never shown","body":"x"}}}"#
            let answer = try await harness.push(payload: payload)
            #expect(answer.status == 200)
            #expect(harness.server.store.snapshot().inFlight == 1)
            let clock = ContinuousClock()
            let stopped = await clock.measure { await harness.server.shutdown() }
            #expect(stopped < .seconds(5), "shutdown took \(stopped)")
            #expect(harness.server.store.snapshot().inFlight == 0)
        }
    }

    @Test("receipts are bounded (newest kept, oldest first, dropped counted), DELETE clears, big bodies get 413")
    func boundedListing() async throws {
        try await withReceiptServer(receiptCapacity: 2) { harness in
            let form = [("content-type", "application/x-www-form-urlencoded")]
            for id in ["one", "two", "three"] {
                let answer = try await harness.send(
                    .POST, "/richpush/v1/receipts", headers: form, body: "push_id=\(id)")
                #expect(answer.status == 200)
            }
            let tooBig = try await harness.send(
                .POST, "/richpush/v1/receipts", headers: form,
                body: "push_id=" + String(repeating: "x", count: 5000))
            #expect(tooBig.status == 413)
            #expect(try await harness.send(.PUT, "/richpush/v1/receipts").status == 405)

            let json = try #require(try await harness.send(.GET, "/richpush/v1/receipts").json)
            #expect(json["capacity"]?.numberValue == 2)
            #expect(json["total"]?.numberValue == 3 && json["dropped"]?.numberValue == 1)
            #expect(json["receipts"]?.arrayValue?.map { $0["pushID"]?.stringValue } == ["two", "three"])

            #expect(try await harness.send(.DELETE, "/richpush/v1/receipts").status == 204)
            let cleared = try #require(try await harness.send(.GET, "/richpush/v1/receipts").json)
            #expect(cleared["total"]?.numberValue == 0 && cleared["receipts"]?.arrayValue?.isEmpty == true)
            // Receipts are not notifications: the results list stays empty.
            let notifications = try #require(try await harness.send(.GET, "/richpush/v1/notifications").json)
            #expect(notifications["total"]?.numberValue == 0)
        }
    }

    @Test(
        "the receipt router: serve's own host and port go to its sender, others elsewhere; with --plaintext a receipt to serve is refused, saying why"
    )
    func routing() async throws {
        try await withServer(plaintext: true) { harness in
            #expect(harness.server.receiptHostMappings.isEmpty)
            let other = RecordingReceiptSender()
            let router = ServerReceiptRouter(server: harness.server, own: nil, other: other)
            let own = try #require(URL(string: "https://localhost:\(harness.server.port)/richpush/v1/receipts"))
            await #expect(throws: ReceiptFailure.self) { try await router.send(DisplayReceipt(url: own, pushID: "1")) }
            do {
                _ = try await router.send(DisplayReceipt(url: own, pushID: "1"))
            } catch let failure as ReceiptFailure {
                #expect(failure.detail.contains("--plaintext"))
            }
            let elsewhere = try #require(URL(string: "https://localhost:\(harness.server.port + 1)/r"))
            #expect(try await router.send(DisplayReceipt(url: elsewhere, pushID: "2")) == 299)
            #expect(other.sent == [DisplayReceipt(url: elsewhere, pushID: "2")])
        }
        try await withServer { harness in
            #expect(Set(harness.server.receiptHostMappings.map(\.host)) == ["localhost", "127.0.0.1"])
            #expect(harness.server.receiptHostMappings.allSatisfy { $0.port == harness.server.port })
            let own = RecordingReceiptSender()
            let other = RecordingReceiptSender()
            let router = ServerReceiptRouter(server: harness.server, own: own, other: other)
            for host in ["127.0.0.1", "LOCALHOST"] {
                let url = try #require(URL(string: "https://\(host):\(harness.server.port)/richpush/v1/receipts"))
                _ = try await router.send(DisplayReceipt(url: url, pushID: host))
            }
            // Port 443 on localhost is someone else's server, not serve.
            _ = try await router.send(DisplayReceipt(url: URL(string: "https://localhost/receipts")!, pushID: "x"))
            #expect(own.sent.map(\.pushID) == ["127.0.0.1", "LOCALHOST"])
            #expect(other.sent.map(\.pushID) == ["x"])
        }
    }

    @Test("the form decoder: + is a space, %XX a byte, a missing push_id is nil")
    func formDecoding() {
        #expect(ReceiptStore.pushID(inFormBody: Array("a=1&push_id=x+y%2Fz".utf8)) == "x y/z")
        #expect(ReceiptStore.pushID(inFormBody: Array("push_id=100%".utf8)) == "100%")
        #expect(ReceiptStore.pushID(inFormBody: Array("id=1".utf8)) == nil)
    }
}

/// Records the receipts it is given and answers 299, to tell routes apart.
final class RecordingReceiptSender: ReceiptSending {
    private let receipts = Mutex<[DisplayReceipt]>([])
    var sent: [DisplayReceipt] { receipts.withLock { $0 } }

    func send(_ receipt: DisplayReceipt) async throws -> Int {
        receipts.withLock { $0.append(receipt) }
        return 299
    }
}
