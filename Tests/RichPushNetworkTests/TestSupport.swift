import AsyncHTTPClient
import Crypto
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import NIOSSL
import RichPushCore
import RichPushNetwork
import Synchronization

/// The committed fixture images (payloads/images), found from this file's location.
let fixturesRoot: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("payloads/images", isDirectory: true)

func fixtureBytes(_ name: String) throws -> Data {
    try Data(contentsOf: fixturesRoot.appendingPathComponent(name))
}

func sha256Hex(_ data: some DataProtocol) -> String {
    SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
}

let quietLogger: Logger = {
    var logger = Logger(label: "richpush.tests") { StreamLogHandler.standardError(label: $0) }
    logger.logLevel = .critical
    return logger
}()

/// A fresh temporary directory, removed by the caller.
func makeTemporaryDirectory(_ name: String = "test") throws -> URL {
    let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("richpush-tests-\(name)-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// A running fixture CDN, an attachment store and a downloader mapped to the CDN; torn down by ``withHarness``.
struct Harness {
    let cdn: FixtureCDN
    let store: AttachmentStore
    let downloader: HTTPSImageDownloader

    /// `https://fixtures.richpush.test/<pathAndQuery>`, as a payload would write it.
    func url(_ pathAndQuery: String) -> URL {
        URL(string: "https://\(FixtureCDN.host)/\(pathAndQuery)")!
    }

    /// Limits for tests not about time: the default sizes and redirects, and a deadline long enough for a machine
    /// busy with other tests.
    static let patientLimits = DownloadLimits(timeout: .seconds(60))

    /// Downloads and collects the events; the failure is returned instead of thrown.
    func download(
        _ pathAndQuery: String, limits: DownloadLimits = patientLimits
    ) async -> (result: Result<DownloadedImage, DownloadFailure>, events: [DownloadEvent]) {
        await download(url: url(pathAndQuery), limits: limits)
    }

    func download(
        url: URL, limits: DownloadLimits = patientLimits
    ) async -> (result: Result<DownloadedImage, DownloadFailure>, events: [DownloadEvent]) {
        let recorder = EventRecorder()
        do {
            let image = try await downloader.download(url, limits: limits, events: recorder.record)
            return (.success(image), recorder.events)
        } catch let failure as DownloadFailure {
            return (.failure(failure), recorder.events)
        } catch {
            return (.failure(DownloadFailure(.attachmentRejected, "unexpected error type: \(error)")), recorder.events)
        }
    }

    /// Files left in the store's directory.
    var leftovers: [String] { store.files().map(\.lastPathComponent) }
}

func withHarness<T>(
    root: URL = fixturesRoot, _ body: (Harness) async throws -> T
) async throws -> T {
    let cdn = try await FixtureCDN.start(root: root, logger: quietLogger)
    let storeParent = try makeTemporaryDirectory("store")
    let store = try AttachmentStore(parent: storeParent, logger: quietLogger)
    let downloader = try HTTPSImageDownloader(store: store, fixtureHost: cdn.hostMapping, logger: quietLogger)
    let harness = Harness(cdn: cdn, store: store, downloader: downloader)
    do {
        let result = try await body(harness)
        await tearDown(harness, storeParent)
        return result
    } catch {
        await tearDown(harness, storeParent)
        throw error
    }
}

private func tearDown(_ harness: Harness, _ storeParent: URL) async {
    await harness.downloader.shutdown()
    await harness.cdn.shutdown()
    harness.store.removeAll()
    try? FileManager.default.removeItem(at: storeParent)
}

/// Collects download events from any thread.
final class EventRecorder: Sendable {
    private let lock = Mutex<[DownloadEvent]>([])
    var events: [DownloadEvent] { lock.withLock { $0 } }
    var record: @Sendable (DownloadEvent) -> Void { { event in self.lock.withLock { $0.append(event) } } }
}

/// A plain HTTPS response from the CDN, for server-side assertions.
struct RawResponse {
    var status: Int
    var headers: HTTPHeaders
    var body: [UInt8]

    func header(_ name: String) -> String? { headers.first(name: name) }
    var text: String { String(decoding: body, as: UTF8.self) }
}

/// Fetches a raw request target from the CDN with a client that trusts only the CDN's CA (no redirects followed).
func fetchRaw(_ cdn: FixtureCDN, _ target: String, method: HTTPMethod = .GET) async throws -> RawResponse {
    try await withRawClient(cdn) { client in try await client.fetch(target, method: method) }
}

/// A plain HTTPS client for the CDN that trusts only its CA, keeps at most one connection open and reuses it.
struct RawClient {
    let client: HTTPClient
    let cdn: FixtureCDN

    func fetch(_ target: String, method: HTTPMethod = .GET) async throws -> RawResponse {
        var request = HTTPClientRequest(url: "https://\(FixtureCDN.host):\(cdn.port)\(target)")
        request.method = method
        let response = try await client.execute(request, timeout: .seconds(30))
        let body = try await response.body.collect(upTo: 64 * 1024 * 1024)
        return RawResponse(
            status: Int(response.status.code), headers: response.headers, body: Array(body.readableBytesView))
    }
}

func withRawClient<T>(_ cdn: FixtureCDN, _ body: (RawClient) async throws -> T) async throws -> T {
    var tls = TLSConfiguration.makeClientConfiguration()
    tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMBytes(Array(cdn.caCertificatePEM.utf8)))
    var configuration = HTTPClient.Configuration(tlsConfiguration: tls, redirectConfiguration: .disallow)
    configuration.dnsOverride = [FixtureCDN.host: "127.0.0.1"]
    // One connection, reused for every request: what a response leaves on it reaches the next one.
    configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 1
    configuration.httpVersion = .http1Only
    let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    do {
        let result = try await body(RawClient(client: client, cdn: cdn))
        try await client.shutdown()
        return result
    } catch {
        try? await client.shutdown()
        throw error
    }
}

/// Runs `operation` and tells whether it finished within `bound` (if not, it is left running). For steps that hang
/// on the bug they test: the bound is far above their normal time and only tells a hang from slowness.
func finishes(within bound: Duration, _ operation: @escaping @Sendable () async -> Void) async -> Bool {
    let (results, continuation) = AsyncStream<Bool>.makeStream()
    let work = Task {
        await operation()
        continuation.yield(true)
    }
    let timer = Task {
        guard (try? await Task.sleep(for: bound)) != nil else { return }
        continuation.yield(false)
    }
    var iterator = results.makeAsyncIterator()
    let finished = await iterator.next() ?? false
    timer.cancel()
    if !finished { work.cancel() }
    continuation.finish()
    return finished
}

extension Result {
    var failure: Failure? {
        if case .failure(let failure) = self { return failure }
        return nil
    }
    var success: Success? {
        if case .success(let success) = self { return success }
        return nil
    }
}
