import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOPosix
import NIOSSL
import Synchronization

/// Makes the one-request HTTP clients of the image downloader and the receipt sender, and shuts them down.
///
/// Trust: the system roots for every host, except the fixture host (``FixtureHostMapping``), whose requests go to
/// the local fixture CDN through a client that trusts the fixture CA and nothing else, with the certificate
/// checked against `fixtures.richpush.test` (SNI and hostname). Verification is never turned off.
///
/// Every request gets its own client and connection; finished clients are shut down in the background
/// (``retire(_:)``) and ``shutdown()`` waits for them.
final class RoutedHTTPClients: Sendable {
    let fixtureHost: FixtureHostMapping?
    /// The longest a connection attempt may take, when the request's deadline leaves more time.
    let connectTimeout: Duration
    private let systemTLS: TLSConfiguration
    private let fixtureTLS: TLSConfiguration?
    private let eventLoopGroup: any EventLoopGroup
    private let logger: Logger
    /// Clients of finished requests, shutting down; ``shutdown()`` waits for them.
    private let retiring = Mutex(RetiringClients())

    private struct RetiringClients {
        var next = 0
        var tasks: [Int: Task<Void, Never>] = [:]
    }

    /// - Throws: when the fixture CA PEM cannot be parsed.
    init(
        fixtureHost: FixtureHostMapping?, logger: Logger, eventLoopGroup: any EventLoopGroup,
        connectTimeout: Duration
    ) throws {
        self.fixtureHost = fixtureHost
        self.logger = logger
        self.eventLoopGroup = eventLoopGroup
        self.connectTimeout = connectTimeout
        // An abandoned request (timeout, cancellation, cap) closes its connection; do not wait the default 5 s
        // for the server's close_notify, which a busy server (e.g. one serving `delay`) sends late.
        var system = TLSConfiguration.makeClientConfiguration()
        system.shutdownTimeout = .milliseconds(250)
        systemTLS = system
        if let fixtureHost {
            var tls = system
            tls.certificateVerification = .fullVerification
            tls.trustRoots = .certificates(
                try NIOSSLCertificate.fromPEMBytes(Array(fixtureHost.caCertificatePEM.utf8)))
            fixtureTLS = tls
        } else {
            fixtureTLS = nil
        }
    }

    /// A client for one request, whose connection attempt ends by `deadline`; `cutByDeadline` says whether the
    /// deadline (rather than ``connectTimeout``) bounds the attempt.
    func makeClient(fixture: Bool, deadline: NIODeadline) -> (client: HTTPClient, cutByDeadline: Bool) {
        let left = deadline - NIODeadline.now()
        let longest = TimeAmount(connectTimeout)
        let cutByDeadline = left < longest
        var configuration = HTTPClient.Configuration(
            tlsConfiguration: fixture ? fixtureTLS : systemTLS,
            redirectConfiguration: .disallow,  // followed by hand, each hop checked
            timeout: .init(connect: max(.milliseconds(1), min(left, longest))),
            decompression: .disabled
        )
        // A refused connection fails now, as on a device, instead of being retried until the deadline.
        configuration.connectionPool.retryConnectionEstablishment = false
        if fixture, let fixtureHost {
            // Connect to the CDN's address but request and verify the certificate for the fixture host name.
            configuration.dnsOverride = [fixtureHost.host.lowercased(): fixtureHost.address]
            configuration.httpVersion = .http1Only
        }
        let client = HTTPClient(
            eventLoopGroup: eventLoopGroup, configuration: configuration, backgroundActivityLogger: logger)
        return (client, cutByDeadline)
    }

    /// Whether `url` goes to the fixture CDN, the URL to request and the Host header: the fixture host goes to
    /// the fixture CDN's port.
    func route(_ url: URL) -> (fixture: Bool, url: URL, host: String?) {
        guard let fixtureHost, fixtureHost.matches(url),
            var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        else { return (false, url, nil) }
        // Host names are case-insensitive; the client's address override is keyed by the lowercase name.
        components.host = fixtureHost.host.lowercased()
        components.port = fixtureHost.port
        guard let mapped = components.url else { return (false, url, nil) }
        return (true, mapped, url.port.map { "\(fixtureHost.host):\($0)" } ?? fixtureHost.host)
    }

    /// Shuts a request's client down in the background: the request does not wait for its connection to close.
    func retire(_ client: HTTPClient) {
        retiring.withLock { retiring in
            let key = retiring.next
            retiring.next += 1
            retiring.tasks[key] = Task {
                try? await client.shutdown()
                self.retiring.withLock { _ = $0.tasks.removeValue(forKey: key) }
            }
        }
    }

    /// Waits until the clients of all finished requests have shut down. Idempotent.
    func shutdown() async {
        while let next = retiring.withLock({ $0.tasks.values.first }) {
            await next.value
        }
    }
}
