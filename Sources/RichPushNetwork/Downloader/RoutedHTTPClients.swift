import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOPosix
import NIOSSL
import Synchronization

/// Makes the one-request HTTP clients of the image downloader and the receipt sender, and shuts them down.
///
/// Trust: the system roots for every host, except the mapped hosts (``FixtureHostMapping``: the fixture host, and
/// any other local server such as `richpush serve`), whose requests go to the mapped address through a client that
/// trusts that mapping's CA and nothing else, with the certificate checked against the mapped host name (SNI and
/// hostname). Verification is never turned off.
///
/// Every request gets its own client and connection; finished clients are shut down in the background
/// (``retire(_:)``) and ``shutdown()`` waits for them.
final class RoutedHTTPClients: Sendable {
    /// The mapping of `fixtures.richpush.test`, when the fixture CDN runs.
    let fixtureHost: FixtureHostMapping?
    /// Every mapped host (the fixture host first) with the TLS configuration that trusts its CA only.
    private let mappings: [(host: FixtureHostMapping, tls: TLSConfiguration)]
    /// The longest a connection attempt may take, when the request's deadline leaves more time.
    let connectTimeout: Duration
    private let systemTLS: TLSConfiguration
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
        fixtureHost: FixtureHostMapping?, additionalHosts: [FixtureHostMapping] = [], logger: Logger,
        eventLoopGroup: any EventLoopGroup, connectTimeout: Duration
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
        mappings = try ([fixtureHost].compactMap { $0 } + additionalHosts).map { host in
            var tls = system
            tls.certificateVerification = .fullVerification
            tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMBytes(Array(host.caCertificatePEM.utf8)))
            return (host, tls)
        }
    }

    /// A client for one request, whose connection attempt ends by `deadline`; `cutByDeadline` says whether the
    /// deadline (rather than ``connectTimeout``) bounds the attempt.
    func makeClient(mapping: Int?, deadline: NIODeadline) -> (client: HTTPClient, cutByDeadline: Bool) {
        let mapped = mapping.map { mappings[$0] }
        let left = deadline - NIODeadline.now()
        let longest = TimeAmount(connectTimeout)
        let cutByDeadline = left < longest
        var configuration = HTTPClient.Configuration(
            tlsConfiguration: mapped?.tls ?? systemTLS,
            redirectConfiguration: .disallow,  // followed by hand, each hop checked
            timeout: .init(connect: max(.milliseconds(1), min(left, longest))),
            decompression: .disabled
        )
        // A refused connection fails now, as on a device, instead of being retried until the deadline.
        configuration.connectionPool.retryConnectionEstablishment = false
        if let host = mapped?.host {
            // Connect to the mapped address but request and verify the certificate for the mapped host name.
            configuration.dnsOverride = [host.host.lowercased(): host.address]
            configuration.httpVersion = .http1Only
        }
        let client = HTTPClient(
            eventLoopGroup: eventLoopGroup, configuration: configuration, backgroundActivityLogger: logger)
        return (client, cutByDeadline)
    }

    /// Which mapping `url` goes to (nil: none, the system's DNS and roots), the URL to request and the Host
    /// header: a mapped host goes to its mapping's port.
    func route(_ url: URL) -> (mapping: Int?, url: URL, host: String?) {
        guard let index = mappings.firstIndex(where: { $0.host.matches(url) }),
            var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        else { return (nil, url, nil) }
        let host = mappings[index].host
        // Host names are case-insensitive; the client's address override is keyed by the lowercase name.
        components.host = host.host.lowercased()
        components.port = host.port
        guard let mapped = components.url else { return (nil, url, nil) }
        return (index, mapped, url.port.map { "\(host.host):\($0)" } ?? host.host)
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
