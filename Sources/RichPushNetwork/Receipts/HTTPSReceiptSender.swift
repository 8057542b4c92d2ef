import AsyncHTTPClient
import Foundation
public import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
public import RichPushCore

/// The real display-receipt sender: `POST push_id=<id>` with `Content-Type: application/x-www-form-urlencoded` and
/// `User-Agent: richpush/<version>`, as the extensions that count displays send it.
///
/// HTTPS only (App Transport Security): another scheme is refused before connecting. Redirects are not followed
/// (a POST is not replayed elsewhere); their status is the answer. One deadline (`timeout`) bounds the whole request.
/// Routing and trust are the image downloader's (``RoutedHTTPClients``): `https://fixtures.richpush.test` goes to
/// the embedded fixture CDN, trusting its CA for that host only; every request has its own client and connection.
///
/// Call ``shutdown()`` before dropping the sender.
public final class HTTPSReceiptSender: ReceiptSending {
    /// The longest a receipt may take, connection included.
    public let timeout: Duration
    private let clients: RoutedHTTPClients
    private let logger: Logger

    /// The User-Agent every receipt carries.
    public static var userAgent: String { "richpush/\(RichPushVersion.current)" }

    /// - Parameters:
    ///   - fixtureHost: route `https://fixtures.richpush.test` to the local fixture CDN (nil: no mapping).
    ///   - additionalHosts: other local servers to send receipts to, each trusted through its own CA only (e.g.
    ///     `richpush serve` on `localhost` with the CA it generated).
    ///   - timeout: the deadline of one receipt, connection included.
    /// - Throws: when the fixture CA PEM cannot be parsed.
    public init(
        fixtureHost: FixtureHostMapping? = nil, additionalHosts: [FixtureHostMapping] = [], logger: Logger,
        timeout: Duration = .seconds(10),
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) throws {
        self.timeout = timeout
        self.logger = logger
        clients = try RoutedHTTPClients(
            fixtureHost: fixtureHost, additionalHosts: additionalHosts, logger: logger, eventLoopGroup: eventLoopGroup,
            connectTimeout: timeout)
    }

    public func send(_ receipt: DisplayReceipt) async throws -> Int {
        let url = receipt.url
        guard url.scheme?.lowercased() == "https" else {
            throw ReceiptFailure("refused before connecting: only https receipts are sent (App Transport Security)")
        }
        guard url.host?.isEmpty == false else { throw ReceiptFailure("the URL \(url.absoluteString) has no host") }
        let (mapping, requestURL, hostHeader) = clients.route(url)
        if mapping == nil, url.host?.lowercased() == FixtureCDN.host {
            throw ReceiptFailure(
                "\(FixtureCDN.host) is served by the embedded fixture CDN, which is not running; nothing was sent")
        }
        let deadline = NIODeadline.now() + TimeAmount(timeout)
        let (client, _) = clients.makeClient(mapping: mapping, deadline: deadline)
        defer { clients.retire(client) }

        var request = HTTPClientRequest(url: requestURL.absoluteString)
        request.method = .POST
        if let hostHeader { request.headers.replaceOrAdd(name: "Host", value: hostHeader) }
        request.headers.add(name: "User-Agent", value: Self.userAgent)
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        request.headers.add(name: "Connection", value: "close")
        let body = ByteBuffer(string: receipt.formBody)
        request.body = .bytes(body)
        logger.debug("receipt request", metadata: ["url": "\(url.absoluteString)", "body": "\(receipt.formBody)"])

        do {
            let response = try await client.execute(request, deadline: deadline, logger: logger)
            // The answer's body is not needed; read a little of it so the connection ends cleanly.
            _ = try? await response.body.collect(upTo: 64 * 1024)
            logger.debug("receipt answered", metadata: ["status": "\(response.status.code)"])
            return Int(response.status.code)
        } catch {
            if Task.isCancelled { throw CancellationError() }
            if let client = error as? HTTPClientError,
                client == .deadlineExceeded || client == .readTimeout || client == .connectTimeout
            {
                throw ReceiptFailure("no answer within \(timeout.shortDescription)")
            }
            let failure = HTTPSImageDownloader.failure(
                for: error, url: url, limits: DownloadLimits(timeout: timeout), fixture: clients.fixtureHost)
            if failure is CancellationError { throw failure }
            throw ReceiptFailure((failure as? DownloadFailure)?.detail ?? "\(error)")
        }
    }

    /// Waits until the clients of all finished receipts have shut down. Idempotent.
    public func shutdown() async {
        await clients.shutdown()
    }
}

extension HTTPSReceiptSender: StoppedAtShutdown {
    /// The group's shutdown does not wait for the clients' (see ``StoppedAtShutdown/shutdownHoldsUpTheGroup``).
    public static var shutdownHoldsUpTheGroup: Bool { false }
}
