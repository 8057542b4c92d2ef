public import AsyncHTTPClient
public import Foundation
public import Logging
public import NIOHTTP1
import NIOCore
import NIOSSL
public import RichPushCore
import RichPushNetwork
public import RichPushServe
import RichPushTestSupport
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The committed fixture images (payloads/images), found from this file's location.
public let fixturesRoot: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("payloads/images", isDirectory: true)

public let quietLogger: Logger = {
    var logger = Logger(label: "richpush.serve.tests") { StreamLogHandler.standardError(label: $0) }
    logger.logLevel = .critical
    return logger
}()

/// A running push server on a free port, delivering through the real pipeline (HTTPS downloader, fixture CDN),
/// and an HTTP/2 client that trusts only the server's generated CA.
public struct ServeHarness {
    public let server: PushServer
    public let client: HTTPClient
    public let results: Results
    public let temporary: URL
    /// Starts the server's deliveries through the harness's system (for `startingDeliveries: false`; otherwise
    /// they run already and this changes nothing).
    public let startDeliveries: @Sendable () -> Void

    /// Results as the server reports them, in order.
    public final class Results: Sendable {
        private let received = Mutex<[ServedNotification]>([])
        private let progressEvents = Mutex<[(id: String, progress: DeliveryProgress)]>([])
        public let stream: AsyncStream<ServedNotification>
        let continuation: AsyncStream<ServedNotification>.Continuation

        init() { (stream, continuation) = AsyncStream.makeStream() }

        func addProgress(_ attributes: APNsAttributes, _ progress: DeliveryProgress) {
            progressEvents.withLock { $0.append((attributes.id, progress)) }
        }

        /// Progress reported for the push with this `apns-id`, in order.
        public func progress(of id: String) -> [DeliveryProgress] {
            progressEvents.withLock { events in events.filter { $0.id == id }.map(\.progress) }
        }

        func add(_ entry: ServedNotification) {
            received.withLock { $0.append(entry) }
            continuation.yield(entry)
        }
    }

    public struct Answer {
        public var status: Int
        public var headers: HTTPHeaders
        public var body: String
        public var version: HTTPVersion
        public var json: JSONValue? { try? JSONParser.parse(Array(body.utf8)) }
    }

    public var caFile: URL { temporary.appendingPathComponent("ca.pem") }

    public func send(
        _ method: HTTPMethod = .POST, _ path: String, headers: [(String, String)] = [], body: String? = nil
    ) async throws -> Answer {
        var request = HTTPClientRequest(url: server.baseURL + path)
        request.method = method
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body { request.body = .bytes(ByteBuffer(string: body)) }
        let response = try await client.execute(request, timeout: .seconds(30))
        let bytes = try await response.body.collect(upTo: 16 * 1024 * 1024)
        return Answer(
            status: Int(response.status.code), headers: response.headers, body: String(buffer: bytes),
            version: response.version)
    }

    /// An APNs push with a fresh provider token and the given changes to its headers.
    public func push(
        token: String = testToken, payload: String = #"{"aps":{"alert":{"title":"Hi","body":"There"}}}"#,
        _ change: (inout [String: String]) -> Void = { _ in }
    ) async throws -> Answer {
        var headers = [
            "authorization": TestJWT().authorization, "apns-topic": testBundleID, "apns-push-type": "alert",
        ]
        change(&headers)
        return try await send(.POST, "/3/device/\(token)", headers: headers.map { ($0.key, $0.value) }, body: payload)
    }

    /// Waits for the next recorded result.
    public func nextResult() async -> ServedNotification? {
        var iterator = results.stream.makeAsyncIterator()
        return await iterator.next()
    }
}

/// A running push server on loopback with the embedded fixture CDN and an HTTP/2 client trusting its CA.
/// With `receipts`, the emulated phone sends its display receipts (`--receipt-url`) to the server's own receipts
/// endpoint over HTTPS trusting the server's CA, as `richpush serve --receipt-url https://localhost:PORT/…` does.
/// Without `startingDeliveries`, accepted pushes wait until the body calls ``ServeHarness/startDeliveries``.
public func withServer<T>(
    plaintext: Bool = false, signingKey: ProviderTokenVerifier.SigningKey? = nil, capacity: Int = 100,
    receipts: Bool = false, receiptCapacity: Int = 100, startingDeliveries: Bool = true,
    categories: AppCategories? = nil, device: DeviceState = .newPhone, summarySchedule: SummarySchedule? = nil,
    _ body: (ServeHarness) async throws -> T
) async throws -> T {
    let temporary = FileManager.default.temporaryDirectory
        .appendingPathComponent("richpush-serve-tests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
    let cdn = try await FixtureCDN.start(root: fixturesRoot, logger: quietLogger)
    let store = try AttachmentStore(parent: temporary, logger: quietLogger)
    let downloader = try HTTPSImageDownloader(store: store, fixtureHost: cdn.hostMapping, logger: quietLogger)
    let results = ServeHarness.Results()
    var serverConfiguration = PushServerConfiguration(
        port: 0, plaintext: plaintext, bundleID: testBundleID, unregisteredTokens: [unregisteredToken],
        signingKey: signingKey, resultCapacity: capacity, receiptCapacity: receiptCapacity)
    serverConfiguration.summarySchedule = summarySchedule
    let server = try await PushServer.start(
        configuration: serverConfiguration,
        appState: { .background }, logger: quietLogger, onProgress: results.addProgress, onResult: results.add)
    // As the commands do: the system is made once the server runs, so its receipt URL names the port the server
    // got and its receipts to the server trust the CA the server generated.
    var ownReceipts: HTTPSReceiptSender?
    if receipts {
        ownReceipts = try HTTPSReceiptSender(
            fixtureHost: cdn.hostMapping, additionalHosts: server.receiptHostMappings, logger: quietLogger)
    }
    var delivery = DeliveryConfiguration(
        receiptURL: receipts ? URL(string: "https://localhost:\(server.port)/richpush/v1/receipts") : nil)
    delivery.categories = categories
    delivery.device = device
    // No serve test is about the 5 s download deadline (the pipeline's tests are); under the whole suite's load on
    // 2 cores a fixture download took longer and a push that should arrive rich arrived plain (CurlTests).
    delivery.downloadTimeout = .seconds(30)
    let system = NotificationSystem(
        downloader: downloader, configuration: delivery,
        logger: quietLogger,
        receiptSender: ownReceipts.map { ServerReceiptRouter(server: server, own: $0, other: $0) })
    if startingDeliveries { server.startDeliveries(through: system) }

    var configuration = HTTPClient.Configuration()
    if let pem = server.caCertificatePEM {
        try pem.write(to: temporary.appendingPathComponent("ca.pem"), atomically: false, encoding: .utf8)
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.trustRoots = .certificates([try NIOSSLCertificate(bytes: Array(pem.utf8), format: .pem)])
        configuration.tlsConfiguration = tls
    }
    configuration.httpVersion = .automatic
    let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    let harness = ServeHarness(
        server: server, client: client, results: results, temporary: temporary,
        startDeliveries: { server.startDeliveries(through: system) })

    func tearDown() async {
        try? await client.shutdown()
        await server.shutdown()
        await ownReceipts?.shutdown()
        await downloader.shutdown()
        await cdn.shutdown()
        store.removeAll()
        try? FileManager.default.removeItem(at: temporary)
    }
    do {
        let value = try await body(harness)
        await tearDown()
        return value
    } catch {
        await tearDown()
        throw error
    }
}

public let unregisteredToken = String(repeating: "cd", count: 32)

/// Runs a program to its end (``runExecutable``) and returns its exit status and standard output (and standard error
/// with `mergingErrors`).
public func runAsync(_ executable: String, _ arguments: [String], mergingErrors: Bool = false, in directory: URL? = nil)
    async throws -> (status: Int32, output: String)
{
    let run = try await runExecutable(
        executable, arguments, in: directory?.path ?? FileManager.default.currentDirectoryPath,
        mergingErrors: mergingErrors)
    return (run.status, run.stdout)
}

/// curl with HTTP/2 support, or nil with the reason it cannot be used.
public let curlPath: String? = {
    for path in ["/usr/bin/curl", "/usr/local/bin/curl", "/bin/curl"]
    where FileManager.default.isExecutableFile(atPath: path) {
        if let run = try? runExecutableBlocking(path, ["--version"]), run.status == 0, run.stdout.contains("HTTP2") {
            return path
        }
    }
    return nil
}()

/// A TCP port that was free a moment ago (bound to port 0 on loopback, then released).
public func freeLoopbackPort() throws -> Int {
    #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard descriptor >= 0 else { throw POSIXError(.EIO) }
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
            bind(descriptor, generic, length) == 0 && getsockname(descriptor, generic, &length) == 0
        }
    }
    guard bound else { throw POSIXError(.EADDRINUSE) }
    return Int(UInt16(bigEndian: address.sin_port))
}

extension JSONValue {
    /// The elements of a JSON array; nil for anything else.
    public var arrayValue: [JSONValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }
}
