import AsyncHTTPClient
import Crypto
public import Foundation
public import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
public import RichPushCore
import Synchronization

/// The real image downloader: HTTPS only, redirects checked hop by hop, one deadline, a streamed size cap,
/// the format from the bytes, and the attachment written to a temporary file named from that format.
///
/// Trust: the system roots for every host, except the fixture host (``FixtureHostMapping``), whose requests
/// go to the local fixture CDN through a second client that trusts the fixture CA and nothing else, with the
/// certificate checked against `fixtures.richpush.test` (SNI and hostname). Verification is never turned off.
///
/// Failure mapping (``DownloadFailure/reason``):
/// - a scheme other than https → `insecureURL`, before any connection;
/// - a redirect (301/302/303/307/308) to anything but https → `insecureRedirect`;
/// - more than `limits.maxRedirects` redirects → `httpStatus` ("HTTP 302 Found: more than 5 redirects"), because
///   the server kept answering with a status the extension cannot use; a redirect without Location → `httpStatus`;
/// - the deadline (`limits.timeout`, for the whole download, redirects included) → `timeout`;
/// - any other non-2xx status → `httpStatus` ("HTTP 404 Not Found"); when the fixture CDN refused the URL's faults,
///   followed by its reason ("HTTP 400 Bad Request from the fixture CDN: bad fault dealy=6s: …");
/// - a Content-Type that is missing or not `image/*` → `notAnImage` ("served text/html"), before the body is read;
/// - `image/*` with WebP/HEIC/SVG/BMP… bytes → `unsupportedImageType`; with bytes that are no image → `notAnImage`;
/// - a Content-Length over `limits.maxBytes` → `tooLarge` before the body is read; a body growing past it → `tooLarge`
///   as soon as it does (the file never holds more than `maxBytes`);
/// - connection, DNS and TLS failures → `networkError` with the underlying message.
/// Task cancellation ends the download promptly with `CancellationError`. Every failure deletes the partial file.
///
/// Connections: requests to the same host share a pool of connections, reused from one download to the next
/// (HTTP/1.1 keep-alive; HTTP/2 where the server speaks it), so 1,000 downloads from one host do not make 1,000 TLS
/// handshakes. There is no cap on connections per host: a request that finds no idle connection opens one at once,
/// so no download waits for another one's connection and no such wait counts against its deadline. Idle
/// connections close after 4 s. Nothing one download leaves on a connection can reach another download: only a
/// download that read its image to the end gives its connection back. After any other end (a bad status, type or
/// size, a timeout, a cancellation, a redirect, or a 204/205/304, which by HTTP has no body but may be followed by
/// bytes a faulty server sent as one) the host's pool is retired: no download is given it again, it is shut down
/// with all its connections once its downloads in flight end, and the next download to that host opens a fresh
/// connection. (async-http-client also closes a connection whose response was abandoned, but a loaded run showed
/// the next download could still be handed that connection and hang on it.)
/// A connection attempt may take at most the download's timeout (and never more than `connectTimeout`):
/// async-http-client cannot cancel a connection attempt, and its shutdown waits for it, so this bound is what keeps
/// ``shutdown()`` prompt after a download to an address that never answers (e.g. `https://[fe80::1%25eth0]/`).
///
/// Events: `requestSent` per request (with the URL as the payload or the redirect wrote it), `redirect` per hop,
/// `responseReceived` once for the final (non-redirect) response, `bytesReceived` about every 64 KB and at the end.
///
/// Call ``shutdown()`` before dropping the downloader: it waits until every request's client has shut down.
public final class HTTPSImageDownloader: ImageDownloading {
    /// Memory figures a test can check: the downloader keeps one received chunk at a time.
    public struct Statistics: Sendable, Equatable {
        /// The largest body chunk held in memory at once, in bytes.
        public var largestChunk = 0
        /// Body bytes streamed to files so far, over all downloads.
        public var bytesStreamed = 0
        /// Downloads started.
        public var downloads = 0
    }

    public let store: AttachmentStore
    public var fixtureHost: FixtureHostMapping? { clients.fixtureHost }
    /// The longest a connection attempt may take, when the download's deadline leaves more time.
    public var connectTimeout: Duration { clients.connectTimeout }
    /// Makes each request's client (routing and trust), shared with ``HTTPSReceiptSender``.
    private let clients: RoutedHTTPClients
    private let logger: Logger
    /// The logger handed to async-http-client with each request.
    private let requestLogger: Logger
    /// Where the downloads' deadlines are timed.
    private let timerLoop: any EventLoop
    private let stats = Mutex(Statistics())
    private static let progressStep = 64 * 1024
    /// Bodies up to this size are inspected from memory; larger ones from their file, read back in chunks.
    static let inspectedInMemory = 64 * 1024
    /// Statuses whose responses have no body by HTTP (RFC 9110), so that bytes a server sends after one are read as
    /// the next response on the connection.
    static let bodilessStatuses: Set<Int> = [204, 205, 304]

    /// - Parameters:
    ///   - store: where attachments are written.
    ///   - fixtureHost: route `https://fixtures.richpush.test` to the local fixture CDN (nil: no mapping; the host
    ///     then fails DNS like any unknown host).
    ///   - logger: request-level debug logs.
    ///   - connectTimeout: the longest a connection attempt may take (the download's deadline may cut it shorter).
    /// - Throws: when the fixture CA PEM cannot be parsed.
    public init(
        store: AttachmentStore, fixtureHost: FixtureHostMapping? = nil, logger: Logger,
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        connectTimeout: Duration = .seconds(10)
    ) throws {
        self.store = store
        self.logger = logger
        timerLoop = eventLoopGroup.next()
        // async-http-client logs requests at debug and trace only, and tags its logger with each request's id
        // first: with nothing to log, a logger that drops everything saves that work on every request.
        requestLogger =
            logger.logLevel <= .debug ? logger : Logger(label: logger.label) { _ in SwiftLogNoOpLogHandler() }
        clients = try RoutedHTTPClients(
            fixtureHost: fixtureHost, logger: logger, eventLoopGroup: eventLoopGroup, connectTimeout: connectTimeout)
    }

    /// Memory and traffic figures so far.
    public var statistics: Statistics { stats.withLock { $0 } }

    /// Closes the pooled connections and waits until every client has shut down: at the latest one download timeout
    /// after the last connection attempt started. Call it when no download is in flight (those still in flight fail).
    /// Idempotent; downloads may still be made afterwards (call it again before dropping the downloader).
    public func shutdown() async {
        await clients.shutdown()
    }

    public func discard(_ image: DownloadedImage) async {
        store.remove(image.file)
    }

    public func discardAttachment(atPath file: String) async {
        store.remove(atPath: file)
    }

    /// Each download ends by its timeout (see ``download(_:limits:events:)``) and keeps no late file.
    public var enforcesTimeout: Bool { true }

    public func download(
        _ url: URL, limits: DownloadLimits, events: @escaping @Sendable (DownloadEvent) -> Void
    ) async throws -> DownloadedImage {
        try Self.checkScheme(url, redirected: false)
        stats.withLock { $0.downloads += 1 }
        let deadline = NIODeadline.now() + TimeAmount(limits.timeout)

        // async-http-client's own deadline ends with the response's head; this one also bounds the body. The fetch
        // runs as one task that a timer on the event loop cancels: a task group racing it against a sleeping task
        // cost a tenth of a replay's processor time.
        let fetch = Task { try await self.fetch(url, limits: limits, deadline: deadline, events: events) }
        let timedOut = Atomic(false)
        let timer = timerLoop.scheduleTask(deadline: deadline) {
            timedOut.store(true, ordering: .relaxed)
            fetch.cancel()
        }
        defer { timer.cancel() }
        let result = await withTaskCancellationHandler {
            await fetch.result
        } onCancel: {
            fetch.cancel()
        }
        let cancelled = Task.isCancelled
        if cancelled || timedOut.load(ordering: .relaxed) {
            // An image stored just as the deadline passed or the caller gave up is not kept: nobody gets its file.
            if case .success(let late) = result { store.remove(late.file) }
            if cancelled { throw CancellationError() }
            throw DownloadFailure.timeout(after: limits.timeout)
        }
        return try result.get()
    }

    // MARK: - Requests

    private func fetch(
        _ url: URL, limits: DownloadLimits, deadline: NIODeadline, events: @escaping @Sendable (DownloadEvent) -> Void
    ) async throws -> DownloadedImage {
        var current = url
        var hops = 0
        while true {
            if fixtureHost == nil, current.host?.lowercased() == FixtureCDN.host {
                // `.test` names never resolve (RFC 6761): say why at once instead of asking DNS.
                throw DownloadFailure(
                    .networkError,
                    "\(FixtureCDN.host) is served by the embedded fixture CDN, which is not running; nothing was sent")
            }
            let (mapping, requestURL, hostHeader) = clients.route(current)
            let lease = clients.lease(mapping: mapping, connectTimeout: min(limits.timeout, connectTimeout))
            // Only a download whose body was read to its end leaves its connection clean for the next one. Any other
            // end (a failure, a refusal, a deadline, a cancellation, a redirect, a bodiless status after which a server
            // may still send bytes) retires the client: a loaded test run saw the next download to the same host hang
            // on a connection an abandoned body had left, and time out without a response.
            var reusable = false
            defer { clients.release(lease, reusable: reusable) }
            var request = HTTPClientRequest(url: requestURL.absoluteString)
            request.method = .GET
            if let hostHeader { request.headers.replaceOrAdd(name: "Host", value: hostHeader) }
            request.headers.add(name: "User-Agent", value: "richpush (NotificationServiceExtension emulator)")
            request.headers.add(name: "Accept", value: "image/*")
            events(.requestSent(current))
            logger.debug("image request", metadata: ["url": "\(current.absoluteString)"])

            let response: HTTPClientResponse
            do {
                response = try await lease.client.execute(request, deadline: deadline, logger: requestLogger)
            } catch let error as HTTPClientError where error == .connectTimeout && limits.timeout <= connectTimeout {
                throw DownloadFailure.timeout(after: limits.timeout)
            } catch {
                throw Self.failure(for: error, url: current, limits: limits, fixture: fixtureHost)
            }
            let status = Int(response.status.code)
            let statusText = Self.statusText(response.status)

            if [301, 302, 303, 307, 308].contains(status) {
                guard let location = response.headers.first(name: "location"),
                    let target = URL(string: location, relativeTo: current)?.absoluteURL, target.host != nil
                else {
                    throw DownloadFailure(.httpStatus, "\(statusText) without a usable Location header")
                }
                hops += 1
                guard hops <= limits.maxRedirects else {
                    throw DownloadFailure(
                        .httpStatus,
                        "\(statusText): more than \(limits.maxRedirects) redirects (stopped before \(target.absoluteString))"
                    )
                }
                events(.redirect(target))
                try Self.checkScheme(target, redirected: true)
                current = target
                continue
            }

            let contentType = response.headers.first(name: "content-type")
            let expected = response.headers.first(name: "content-length").flatMap { Int($0) }
            events(.responseReceived(status: status, contentType: contentType, expectedBytes: expected))
            // An extension that does not look at the status saves an error page like an image.
            guard limits.acceptsAnyStatus || (200...299).contains(status) else {
                // The fixture CDN says why it refused the URL's faults; the hint repeats it (HintEngine).
                let refusal = mapping == nil ? nil : response.headers.first(name: FixtureCDN.faultErrorHeader)
                throw DownloadFailure(
                    .httpStatus, statusText + (refusal.map { HintEngine.fixtureRefusalMarker + $0 } ?? ""))
            }

            let mediaType = contentType.map(MediaType.of) ?? ""
            guard limits.contentTypeRule == .ignored || mediaType.hasPrefix("image/") else {
                throw DownloadFailure(
                    .notAnImage,
                    mediaType.isEmpty ? "served no Content-Type (image/* is required)" : "served \(contentType ?? "")")
            }
            if let expected, expected > limits.maxBytes {
                throw DownloadFailure(
                    .tooLarge, "Content-Length \(expected) bytes is over the \(limits.maxBytes)-byte limit")
            }
            let disposition = response.headers.first(name: "content-disposition")
            let image = try await store(
                response.body, contentType: contentType ?? mediaType, served: (status, contentType, disposition),
                limits: limits, events: events)
            reusable = !Self.bodilessStatuses.contains(status)
            return image
        }
    }

    /// Streams the body, hashing as it goes, then stores it named from the detected format. A body stays in memory
    /// while it is at most ``inspectedInMemory`` bytes: inspected there, and written once under its final name if it
    /// is an image. A larger one goes on to a partial file, inspected from the file and renamed when accepted.
    private func store(
        _ body: HTTPClientResponse.Body, contentType: String,
        served: (status: Int, contentType: String?, disposition: String?), limits: DownloadLimits,
        events: @escaping @Sendable (DownloadEvent) -> Void
    ) async throws -> DownloadedImage {
        var partial: (url: URL, descriptor: Int32)?
        var kept: URL?
        var descriptorOpen = false
        defer {
            if let partial {
                if descriptorOpen { close(partial.descriptor) }
                if kept == nil { store.recycle(partial.url) }
            }
        }

        var hasher = SHA256()
        var total = 0
        var reported = 0
        var inMemory: [UInt8] = []
        do {
            for try await chunk in body {
                let size = chunk.readableBytes
                stats.withLock { $0.largestChunk = max($0.largestChunk, size) }
                guard total + size <= limits.maxBytes else {
                    throw DownloadFailure(
                        .tooLarge,
                        "the body passed the \(limits.maxBytes)-byte limit while streaming (no Content-Length)")
                }
                if partial == nil, total + size > Self.inspectedInMemory {
                    let file = try storing { try store.makePartialFile() }
                    partial = file
                    descriptorOpen = true
                    try storing { try inMemory.withUnsafeBytes { try AttachmentStore.write($0, to: file.descriptor) } }
                    inMemory = []
                }
                try chunk.withUnsafeReadableBytes { bytes in
                    hasher.update(bufferPointer: bytes)
                    if let partial {
                        try storing { try AttachmentStore.write(bytes, to: partial.descriptor) }
                    } else {
                        inMemory.append(contentsOf: bytes)
                    }
                }
                total += size
                stats.withLock { $0.bytesStreamed += size }
                if total - reported >= Self.progressStep {
                    reported = total
                    events(.bytesReceived(total))
                }
            }
        } catch let failure as DownloadFailure {
            throw failure
        } catch {
            throw Self.failure(for: error, url: nil, limits: limits, fixture: fixtureHost)
        }
        if total != reported { events(.bytesReceived(total)) }
        if let partial {
            descriptorOpen = false
            try storing { try store.finishPartialFile(partial.descriptor, length: total) }
        }
        try Task.checkCancellation()

        let inspection: ImageInspection
        do {
            inspection =
                try partial.map { try ImageInspector.inspect(fileAt: $0.url) } ?? ImageInspector.inspect(inMemory)
        } catch {
            throw DownloadFailure(.networkError, "could not read the downloaded file back: \(error)")
        }
        // What arrived whole but is no image a notification shows: an extension that does not check would still attach it.
        func unshown(_ reason: FallbackReason, _ detail: String) -> DownloadFailure {
            var failure = DownloadFailure(reason, detail)
            let head = partial.map { DownloadedFile.head(of: $0.url) } ?? Array(inMemory.prefix(8))
            failure.body = ServedBody(
                status: served.status, contentType: served.contentType, contentDisposition: served.disposition,
                head: head)
            return failure
        }
        switch inspection {
        case .notAnImage(let what):
            throw unshown(.notAnImage, "served \(contentType) but the body is not an image (\(what))")
        case .unsupportedImageType(let type):
            throw unshown(
                .unsupportedImageType,
                "served \(contentType) and the bytes are \(type); notifications show PNG, JPEG and GIF only")
        case .image(let info):
            let file: URL
            if let partial {
                file = try storing { try store.commit(partial.url, fileExtension: info.format.fileExtension) }
            } else {
                file = try storing {
                    try store.create(fileExtension: info.format.fileExtension, contents: inMemory)
                }
            }
            kept = file
            let digest = Hexadecimal.lowercase(hasher.finalize())
            logger.debug("image stored", metadata: ["file": "\(file.path)", "bytes": "\(total)"])
            return DownloadedImage(
                file: file, format: info.format, width: info.width, height: info.height, frames: info.frames,
                bytes: total, sha256: digest, servedContentType: contentType,
                servedContentDisposition: served.disposition)
        }
    }

    /// Runs a step of writing the attachment; a file system failure (a full disk) becomes a failure that says so,
    /// not one blamed on the network.
    private func storing<T>(_ step: () throws -> T) throws -> T {
        do {
            return try step()
        } catch {
            throw DownloadFailure(.networkError, "could not store the attachment in \(store.directory.path): \(error)")
        }
    }

    // MARK: - Checks and error mapping

    private static func checkScheme(_ url: URL, redirected: Bool) throws {
        let scheme = url.scheme?.lowercased() ?? ""
        guard scheme == "https" else {
            if redirected {
                throw DownloadFailure(
                    .insecureRedirect, "redirected to \(url.absoluteString); only https redirects are followed")
            }
            throw DownloadFailure(
                .insecureURL,
                scheme.isEmpty
                    ? "the URL has no scheme; only https is downloaded"
                    : "\(scheme):// URLs are refused before connecting; only https is downloaded")
        }
        guard let host = url.host, !host.isEmpty else {
            throw DownloadFailure(redirected ? .httpStatus : .invalidURL, "the URL \(url.absoluteString) has no host")
        }
        if let port = url.port, !(1...65535).contains(port) {
            throw DownloadFailure(
                redirected ? .httpStatus : .invalidURL,
                "the port \(port) is out of range (1 to 65535) in \(url.absoluteString)")
        }
    }

    static func failure(for error: any Error, url: URL?, limits: DownloadLimits, fixture: FixtureHostMapping?)
        -> any Error
    {
        if error is DownloadFailure || error is CancellationError { return error }
        if Task.isCancelled { return CancellationError() }
        let target = url.map { "\($0.host ?? "?")\($0.port.map { ":\($0)" } ?? "")" } ?? "the server"
        if let client = error as? HTTPClientError {
            switch client {
            case .deadlineExceeded, .readTimeout, .getConnectionFromPoolTimeout:
                return DownloadFailure.timeout(after: limits.timeout)
            case .cancelled:
                return CancellationError()
            case .connectTimeout:
                return DownloadFailure(.networkError, "connecting to \(target) timed out")
            case .tlsHandshakeTimeout:
                return DownloadFailure(.networkError, "the TLS handshake with \(target) timed out")
            case .remoteConnectionClosed:
                return DownloadFailure(.networkError, "\(target) closed the connection before the response ended")
            default:
                return DownloadFailure(.networkError, "HTTP client error: \(client)")
            }
        }
        if let ssl = error as? NIOSSLError {
            return DownloadFailure(.networkError, "TLS with \(target) failed: \(ssl)")
        }
        if let ssl = error as? BoringSSLError {
            return DownloadFailure(.networkError, "TLS with \(target) failed: \(ssl)")
        }
        if let connection = error as? NIOConnectionError {
            if let dns = connection.dnsAError ?? connection.dnsAAAAError {
                var detail = "DNS lookup of \(connection.host) failed: \(dns)"
                if connection.host.lowercased() == FixtureCDN.host, fixture == nil {
                    detail += " (\(FixtureCDN.host) is served by the embedded fixture CDN, which is not running)"
                }
                return DownloadFailure(.networkError, detail)
            }
            let reasons = connection.connectionErrors.map { "\($0.error)" }
            let refused = connection.connectionErrors.contains { ($0.error as? IOError)?.errnoCode == ECONNREFUSED }
            return DownloadFailure(
                .networkError,
                "could not connect to \(connection.host):\(connection.port): \(reasons.first ?? "\(connection)")"
                    + (refused ? fixtureHint(url, fixture) : ""))
        }
        if let io = error as? IOError {
            // NIO's own description wraps the system message oddly; the errno text is what people search for.
            return DownloadFailure(
                .networkError,
                "could not connect to \(target): \(String(cString: strerror(io.errnoCode))) (errno \(io.errnoCode))"
                    + (io.errnoCode == ECONNREFUSED ? fixtureHint(url, fixture) : ""))
        }
        return DownloadFailure(.networkError, "could not download from \(target): \(error)")
    }

    /// For a refused connection to the fixture CDN: says that it is not running.
    private static func fixtureHint(_ url: URL?, _ fixture: FixtureHostMapping?) -> String {
        guard let url, let fixture, fixture.matches(url) else { return "" }
        return " (the fixture CDN at \(fixture.address):\(fixture.port) is not running)"
    }

    static func statusText(_ status: HTTPResponseStatus) -> String {
        // Known codes get NIO's standard phrase whatever the server sent (HTTP/2 sends none).
        let phrase = HTTPResponseStatus(statusCode: Int(status.code), reasonPhrase: status.reasonPhrase).reasonPhrase
        return phrase.isEmpty ? "HTTP \(status.code)" : "HTTP \(status.code) \(phrase)"
    }
}

extension HTTPSImageDownloader: StoppedAtShutdown {
    /// The group's shutdown does not wait for the clients' (see ``StoppedAtShutdown/shutdownHoldsUpTheGroup``).
    public static var shutdownHoldsUpTheGroup: Bool { false }
}
