public import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTLS
public import Logging
import RichPushCore
import NIOCore
import NIOHTTP1
import NIOSSL
import NIOTLS
import ServiceLifecycle
import Synchronization

/// The embedded HTTPS fixture CDN: serves `https://fixtures.richpush.test/<path>?<faults>` from a fixture root.
///
/// A Hummingbird 2 server with TLS on 127.0.0.1, on an ephemeral port unless one is given, with a certificate
/// chain generated at start (``FixtureCertificateAuthority``). Faults come from the query (``FaultSpec``); files
/// come from the root only (``FixtureFileResolver``). Logs go to the injected logger, never to stdout.
///
/// ```swift
/// let cdn = try await FixtureCDN.start(root: URL(fileURLWithPath: "payloads/images"), logger: logger)
/// let store = try AttachmentStore(logger: logger)
/// let downloader = try HTTPSImageDownloader(store: store, fixtureHost: cdn.hostMapping, logger: logger)
/// // ... downloader.download(URL(string: "https://fixtures.richpush.test/cat.png?delay=250ms")!, ...)
/// await downloader.shutdown(); await cdn.shutdown(); store.removeAll()
/// ```
public final class FixtureCDN: Sendable {
    /// The host name payloads use for fixtures. Start the CDN only when some payload's URL has this host.
    public static let host = "fixtures.richpush.test"
    /// The header of a 400 for faults the CDN cannot use that holds the body's sentence (in printable ASCII): the
    /// downloader reads no error body, and takes the reason from here.
    public static let faultErrorHeader = "X-Richpush-Fault-Error"

    /// The TCP port the server listens on (127.0.0.1).
    public var port: Int { server.port }
    /// The fixture root, symlinks resolved.
    public let root: URL
    /// The generated CA and server certificate.
    public let certificateAuthority: FixtureCertificateAuthority
    /// The display receipts received at `POST /receipts`.
    public let receipts: ReceiptLog
    /// The requests answered, for whoever registered the connection they came on (a team's extension's proxy).
    public let requests: FixtureRequestLog
    private let server: LocalHTTPServer
    private let counters: FixtureTrafficCounters
    private let logger: Logger

    /// What the server has seen so far: a client that reuses connections makes far fewer connections (and TLS
    /// handshakes) than requests.
    public struct Traffic: Sendable, Equatable {
        /// TCP connections accepted.
        public var connections = 0
        /// TLS handshakes completed.
        public var tlsHandshakes = 0
        /// HTTP requests answered.
        public var requests = 0

        public init(connections: Int = 0, tlsHandshakes: Int = 0, requests: Int = 0) {
            self.connections = connections
            self.tlsHandshakes = tlsHandshakes
            self.requests = requests
        }
    }

    /// Connections, TLS handshakes and requests since the server started.
    public var traffic: Traffic { counters.traffic }

    /// The CA certificate in PEM (for `--ca-out` and `curl --cacert`).
    public var caCertificatePEM: String { certificateAuthority.caCertificatePEM }

    /// What a downloader needs to send `https://fixtures.richpush.test/...` to this server.
    public var hostMapping: FixtureHostMapping {
        FixtureHostMapping(
            host: Self.host, address: "127.0.0.1", port: port, caCertificatePEM: certificateAuthority.caCertificatePEM)
    }

    /// A ready-to-paste curl command fetching `path` through this server.
    public func curlExample(path: String = "cat.png", caFile: String = "fixture-ca.pem") -> String {
        "curl --cacert \(caFile) --resolve \(Self.host):\(port):127.0.0.1 -o /dev/null -w '%{http_code} %{content_type} %{size_download}\\n' 'https://\(Self.host):\(port)/\(path)'"
    }

    private init(
        server: LocalHTTPServer, root: URL, certificateAuthority: FixtureCertificateAuthority, receipts: ReceiptLog,
        requests: FixtureRequestLog, counters: FixtureTrafficCounters, logger: Logger
    ) {
        self.server = server
        self.counters = counters
        self.logger = logger
        self.receipts = receipts
        self.requests = requests
        self.root = root
        self.certificateAuthority = certificateAuthority
    }

    /// Generates the certificates, binds 127.0.0.1:`port` (0 = ephemeral) and returns once the server accepts
    /// connections. Throws ``FixtureRootError`` for a missing or unreadable root, or ``LocalHTTPServerError``.
    /// `recordedRoots` are served too, looked in first (``FixtureFileResolver/recordedRoots``).
    public static func start(
        root: URL, recordedRoots: [URL] = [], port: Int = 0, logger: Logger
    ) async throws -> FixtureCDN {
        var resolver = try FixtureFileResolver(root: root)
        resolver.recordedRoots = try recordedRoots.map { try FixtureFileResolver(root: $0) }
        let authority = try FixtureCertificateAuthority.generate(hostname: host)
        let tls = try authority.serverTLSConfiguration()

        let receipts = ReceiptLog()
        let requests = FixtureRequestLog()
        let counters = FixtureTrafficCounters()
        let server = try await LocalHTTPServer.start(
            responder: FixtureResponder(
                resolver: resolver, receipts: receipts, requests: requests, counters: counters, logger: logger
            ).router.buildResponder(),
            server: try .tls(
                .http1(configuration: .init(additionalChannelHandlers: [FixtureConnectionCounter(counters)])),
                tlsConfiguration: tls),
            host: "127.0.0.1", port: port, name: "richpush-fixture-cdn", grace: shutdownGrace, logger: logger)
        logger.info(
            "fixture CDN listening", metadata: ["port": "\(server.port)", "root": "\(resolver.root.path)"])
        return FixtureCDN(
            server: server, root: resolver.root, certificateAuthority: authority, receipts: receipts,
            requests: requests, counters: counters, logger: logger)
    }

    /// How long requests in flight (a long `delay` or `drip`) may go on once the CDN is asked to stop.
    static let shutdownGrace: Duration = .milliseconds(500)

    /// Stops the server and waits for it: a graceful shutdown (no new connections, idle ones closed, requests in
    /// flight may finish), then cancellation of whatever still runs after ``shutdownGrace``.
    public func shutdown() async {
        await server.shutdown()
        let traffic = counters.traffic
        logger.debug(
            "fixture CDN stopped",
            metadata: [
                "requests": "\(traffic.requests)", "connections": "\(traffic.connections)",
                "tls-handshakes": "\(traffic.tlsHandshakes)",
            ])
    }

}

/// Sends requests for a fixture host to the local fixture CDN, trusting its CA for that host only.
public struct FixtureHostMapping: Sendable, Equatable {
    /// The host payload URLs use, `fixtures.richpush.test`.
    public var host: String
    /// Where the server really listens.
    public var address: String
    public var port: Int
    /// The only trust root used for this host.
    public var caCertificatePEM: String

    public init(host: String = FixtureCDN.host, address: String = "127.0.0.1", port: Int, caCertificatePEM: String) {
        self.host = host
        self.address = address
        self.port = port
        self.caCertificatePEM = caCertificatePEM
    }

    /// Whether `url` is for the mapped host (https or not; a port other than 443 or ours is not).
    public func matches(_ url: URL) -> Bool {
        guard let urlHost = url.host, urlHost.lowercased() == host.lowercased() else { return false }
        return url.port == nil || url.port == 443 || url.port == port
    }
}

/// The fixture CDN's traffic figures, shared by its connections.
final class FixtureTrafficCounters: Sendable {
    private let state = Mutex(FixtureCDN.Traffic())

    var traffic: FixtureCDN.Traffic { state.withLock { $0 } }

    func count(_ figure: any WritableKeyPath<FixtureCDN.Traffic, Int> & Sendable) {
        state.withLock { $0[keyPath: figure] += 1 }
    }
}

/// Counts a connection when it is set up (one per accepted connection) and its TLS handshake when it completes.
final class FixtureConnectionCounter: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = Any

    private let counters: FixtureTrafficCounters

    init(_ counters: FixtureTrafficCounters) {
        self.counters = counters
    }

    func handlerAdded(context: ChannelHandlerContext) {
        counters.count(\.connections)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case .handshakeCompleted = event as? TLSUserEvent { counters.count(\.tlsHandshakes) }
        context.fireUserInboundEventTriggered(event)
    }
}

/// The request context of the fixture CDN: Hummingbird's, plus the connection, for flow control.
struct FixtureRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }
}

/// Serves the fixture root with faults, routed by Hummingbird's router: `POST /receipts` records a display receipt,
/// `GET` and `HEAD` of any other path serve a file of the root; other methods are 405. Every answer is counted,
/// logged, and reported to whoever registered the connection it came on (``FixtureRequestLog``).
struct FixtureResponder: Sendable {

    let resolver: FixtureFileResolver
    let receipts: ReceiptLog
    let requests: FixtureRequestLog
    let counters: FixtureTrafficCounters
    let logger: Logger
    /// Bytes read from a file and sent per write.
    static let chunkSize = 32 * 1024
    /// Where display receipts are POSTed.
    static let receiptsPath = "/receipts"
    /// Largest receipt body accepted.
    static let maxReceiptBytes = 64 * 1024

    var router: Router<FixtureRequestContext> {
        let router = Router(context: FixtureRequestContext.self)
        router.add(middleware: Accounting(receipts: receipts, requests: requests, counters: counters, logger: logger))
        router.post(RouterPath(Self.receiptsPath)) { request, _ in await receiptResponse(to: request) }
        // Without these, a GET of /receipts would be taken for a file; other methods are refused below.
        router.get(RouterPath(Self.receiptsPath)) { request, _ in Self.methodNotAllowed(path: request.uri.path) }
        router.head(RouterPath(Self.receiptsPath)) { request, _ in Self.methodNotAllowed(path: request.uri.path) }
        for path in ["/", "**"] {
            router.get(RouterPath(path)) { request, context in await fileResponse(to: request, channel: context.channel)
            }
            router.head(RouterPath(path)) { request, context in
                await fileResponse(to: request, channel: context.channel)
            }
        }
        return router
    }

    /// Counts, times, logs and reports every answer, the router's own refusals included; a method the router has
    /// no route for is 405.
    struct Accounting: RouterMiddleware {
        typealias Context = FixtureRequestContext

        let receipts: ReceiptLog
        let requests: FixtureRequestLog
        let counters: FixtureTrafficCounters
        let logger: Logger

        func handle(
            _ request: Request, context: Context, next: (Request, Context) async throws -> Response
        ) async throws -> Response {
            counters.count(\.requests)
            let started = ContinuousClock.now
            let response: Response
            do {
                response = try await next(request, context)
            } catch let error as HTTPError where error.status == .notFound {
                // The router has no route for this method on this path.
                response = FixtureResponder.methodNotAllowed(path: request.uri.path)
            }
            requests.record(port: context.channel.remoteAddress?.port) {
                let seconds = (ContinuousClock.now - started).seconds
                let bytes = response.body.contentLength.map { "\($0) bytes" } ?? "streamed body"
                return
                    "\(request.method) https://\(FixtureCDN.host)\(request.uri.string) → \(response.status.code), \(bytes), answered after \(String(format: "%.3f", seconds)) s"
            }
            logger.debug(
                "fixture request",
                metadata: [
                    "method": "\(request.method)", "uri": "\(request.uri.string)", "status": "\(response.status.code)",
                ])
            return response
        }
    }

    /// 405 for a method a path does not take: receipts are POSTed, files are read with GET and HEAD.
    static func methodNotAllowed(path: String) -> Response {
        var response =
            path == receiptsPath
            ? text(405, "receipts are POSTed to \(receiptsPath)") : text(405, "only GET and HEAD are served")
        response.headers[.allow] = path == receiptsPath ? "POST" : "GET, HEAD"
        return response
    }

    /// A fixture file, with the faults of the query.
    private func fileResponse(to request: Request, channel: any Channel) async -> Response {
        let faults: FaultSpec
        do {
            faults = try FaultSpec.parse(query: request.uri.query)
        } catch {
            return Self.refusal(error)
        }

        if let delay = faults.delay {
            do { try await Task.sleep(for: delay) } catch { return Self.text(503, "shutting down") }
        }

        if let redirect = faults.redirect {
            let authority = Self.authority(of: request, scheme: redirect)
            let query = FormEncoding.removing("redirect", from: request.uri.query, plus: .plus)
            let location = "\(redirect.rawValue)://\(authority)\(request.uri.path)\(query.map { "?\($0)" } ?? "")"
            var response = Self.text(302, "redirecting to \(location)")
            response.headers[.location] = location
            return response
        }

        if let status = faults.status, FaultSpec.bodilessStatuses.contains(status) {
            // No body at all: a client reads none after these statuses, so body bytes would be taken as the start
            // of the next response on the connection.
            var response = Response(status: .init(code: status, reasonPhrase: Self.reasonPhrase(status)))
            if let type = faults.contentType { Self.apply(type, to: &response) }
            return response
        }
        if let status = faults.status, !(200...299).contains(status) {
            var response = Self.text(status, "HTTP \(status) \(Self.reasonPhrase(status)) (injected fault)")
            if let type = faults.contentType { Self.apply(type, to: &response) }
            return response
        }

        let file: URL
        switch resolver.resolve(rawPath: request.uri.path) {
        case .file(let url): file = url
        case .notFound(let message): return Self.text(404, message)
        case .forbidden(let message): return Self.text(403, message)
        }
        let opened: OpenedFixture
        switch OpenedFixture.opening(file) {
        case .success(let fixture): opened = fixture
        case .failure(let problem): return Self.text(403, problem.message)
        }

        let padding = faults.pad ?? 0
        let total = min(opened.size + padding, faults.truncate ?? Int.max)
        let status = HTTPResponse.Status(
            code: faults.status ?? 200, reasonPhrase: Self.reasonPhrase(faults.status ?? 200))
        var headers = HTTPFields()
        headers[.contentType] = Self.contentType(forExtension: file.pathExtension)
        let body = Self.body(opened, total: total, drip: faults.drip, channel: channel)
        var response = Response(status: status, headers: headers, body: body)
        if let type = faults.contentType { Self.apply(type, to: &response) }
        if request.method == .head { response = response.createHeadResponse() }
        return response
    }

    /// `POST /receipts`: records the receipt (method, headers, body, time), then answers as the faults say
    /// (`delay`, `status`; 200 by default). The receipt is recorded when it has been read, before any `delay`, as a
    /// server would count it even if the client gives up waiting for the answer.
    private func receiptResponse(to request: Request) async -> Response {
        let faults: FaultSpec
        do {
            faults = try FaultSpec.parse(query: request.uri.query)
        } catch {
            return Self.refusal(error)
        }
        guard faults.contentType == nil, faults.redirect == nil, faults.drip == nil, faults.pad == nil,
            faults.truncate == nil
        else {
            return Self.text(400, "only the faults delay and status apply to \(Self.receiptsPath)")
        }
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: Self.maxReceiptBytes)
        } catch {
            return Self.text(413, "a receipt body may be at most \(Self.maxReceiptBytes) bytes")
        }
        let entry = ReceiptLog.Entry(
            method: "\(request.method)", target: request.uri.string,
            // HTTP/1.1's Host header arrives as the request's authority.
            headers: (request.head.authority.map { [(name: "host", value: $0)] } ?? [])
                + request.headers.map { (name: $0.name.canonicalName, value: $0.value) },
            body: Array(body.readableBytesView), receivedAt: Date())
        receipts.append(entry)
        logger.debug(
            "fixture CDN received a receipt",
            metadata: [
                "body": "\(entry.bodyText.debugDescription)",
                "content-type": "\((entry.header("content-type") ?? "none").debugDescription)",
                "user-agent": "\((entry.header("user-agent") ?? "none").debugDescription)",
            ])
        if let delay = faults.delay {
            do { try await Task.sleep(for: delay) } catch { return Self.text(503, "shutting down") }
        }
        let status = faults.status ?? 200
        if FaultSpec.bodilessStatuses.contains(status) {
            return Response(status: .init(code: status, reasonPhrase: Self.reasonPhrase(status)))
        }
        if !(200...299).contains(status) {
            return Self.text(status, "HTTP \(status) \(Self.reasonPhrase(status)) (injected fault)")
        }
        return Self.text(status, "receipt recorded")
    }

    /// The file's first bytes, then zero padding, `total` bytes in all; at `drip` bytes per second when given.
    ///
    /// Memory stays at a few chunks per connection however slowly the client reads: a write only hands the chunk
    /// to the connection's event loop, and waits only if the connection has already reported that it is full,
    /// which it can only do once the event loop has processed the writes. Left alone, reading the file races ahead
    /// and queues it whole on the event loop; so after each chunk the body waits for the event loop to get
    /// through its queue before reading the next one.
    private static func body(_ fixture: OpenedFixture, total: Int, drip: Int?, channel: any Channel) -> ResponseBody {
        // A drip body has no Content-Length (chunked): clients must cap it while streaming.
        ResponseBody(contentLength: drip == nil ? total : nil) { writer in
            // Drip: a tenth of the rate every 100 ms.
            let step = drip.map { max(1, $0 / 10) } ?? chunkSize
            var sent = 0
            while sent < total {
                let length = min(step, chunkSize, total - sent)
                var buffer = ByteBuffer()
                if sent < fixture.size {
                    let read = try fixture.read(into: &buffer, at: sent, count: min(length, fixture.size - sent))
                    if read == 0 { break }  // the file shrank under us
                } else {
                    buffer.writeRepeatingByte(0, count: length)
                }
                sent += buffer.readableBytes
                try await writer.write(buffer)
                // Nothing is read after the last chunk: no need to wait for the event loop then.
                if sent < total { try await channel.eventLoop.submit {}.get() }
                if drip != nil, sent < total { try await Task.sleep(for: .milliseconds(100)) }
            }
            try await writer.finish(nil)
        }
    }

    /// The Host the client asked for (so `curl --resolve host:PORT` gets a usable Location), else the fixture host.
    private static func authority(of request: Request, scheme: FaultSpec.RedirectTarget) -> String {
        let requested = request.head.authority ?? ""
        let hostPart = requested.split(separator: ":", maxSplits: 1).first.map(String.init) ?? ""
        guard hostPart.lowercased() == FixtureCDN.host else { return FixtureCDN.host }
        // Keep a port only for https (there is no plain-http listener).
        return scheme == .https ? requested : FixtureCDN.host
    }

    private static func apply(_ type: FaultSpec.ContentTypeOverride, to response: inout Response) {
        switch type {
        case .omit: response.headers[.contentType] = nil
        case .value(let value): response.headers[.contentType] = value
        }
    }

    /// The 400 for faults the CDN cannot use: the sentence as the body and in ``FixtureCDN/faultErrorHeader``, with
    /// anything beyond printable ASCII written as `\u{E9}`.
    static func refusal(_ error: FaultSpecError) -> Response {
        var response = text(400, error.description)
        var sentence = ""
        for scalar in error.description.unicodeScalars {
            if (0x20...0x7E).contains(scalar.value) {
                sentence.unicodeScalars.append(scalar)
            } else {
                sentence += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            }
        }
        if let name = HTTPField.Name(FixtureCDN.faultErrorHeader) { response.headers[name] = sentence }
        return response
    }

    static func text(_ code: Int, _ message: String) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/plain; charset=utf-8"
        return Response(
            status: .init(code: code, reasonPhrase: Self.reasonPhrase(code)),
            headers: headers,
            body: .init(byteBuffer: ByteBuffer(string: message + "\n"))
        )
    }

    /// The standard reason phrase of a status code (empty for codes NIO does not know).
    static func reasonPhrase(_ code: Int) -> String {
        HTTPResponseStatus(statusCode: code).reasonPhrase
    }

    /// Content-Type by file extension: Hummingbird's table (`MediaType`), plus the image types iOS decodes that it
    /// does not list; text is UTF-8; unknown extensions are `application/octet-stream`.
    static func contentType(forExtension fileExtension: String) -> String {
        let name = fileExtension.lowercased()
        if let type = imageTypesBeyondHummingbird[name] { return type }
        guard let type = MediaType.getMediaType(forExtension: name) else { return "application/octet-stream" }
        return type.isType(.text) ? type.withParameter(name: "charset", value: "utf-8").description : type.description
    }

    private static let imageTypesBeyondHummingbird = [
        "apng": "image/png", "jpe": "image/jpeg", "heic": "image/heic", "heif": "image/heif", "avif": "image/avif",
    ]
}

extension FixtureCDN: StoppedAtShutdown {}
