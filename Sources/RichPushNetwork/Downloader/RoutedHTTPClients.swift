import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOPosix
import NIOSSL
import Synchronization

/// Makes the HTTP clients of the image downloader (pooled, connections reused) and of the receipt sender (one
/// client per request), and shuts them down.
///
/// Trust: the system roots for every host, except the mapped hosts (``FixtureHostMapping``: the fixture host, and
/// any other local server such as `richpush serve`), whose requests go to the mapped address through a client that
/// trusts that mapping's CA and nothing else, with the certificate checked against the mapped host name (SNI and
/// hostname). Verification is never turned off.
///
/// Two ways to get a client:
/// - ``makeClient(mapping:deadline:)``: a client (and connection) for one request, shut down in the background by
///   ``retire(_:)``;
/// - ``lease(mapping:connectTimeout:)``: a pooled client shared by every request to the same route with the same
///   connection timeout, whose connections are reused (HTTP/1.1 keep-alive; HTTP/2 where the server speaks it).
///   ``release(_:reusable:)`` with `reusable: false` retires it: no request is given it again, and it is shut down
///   (closing every connection it holds) once its last request ends.
/// ``shutdown()`` shuts every client down and waits for them.
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

    /// Pooled clients: the current one per route and connection timeout, and each client's requests in flight.
    private let pools = Mutex(Pools())
    /// How long a pooled connection may stay idle before it is closed: below the shortest keep-alive timeout in
    /// common use (5 s), so that a server never closes a connection just as a request is sent on it.
    static let pooledIdleTimeout: TimeAmount = .seconds(4)

    private struct RetiringClients {
        var next = 0
        var tasks: [Int: Task<Void, Never>] = [:]
    }

    fileprivate struct PoolKey: Hashable {
        var mapping: Int?
        var connectTimeout: Duration
    }

    private struct Pools {
        var current: [PoolKey: HTTPClient] = [:]
        /// Requests in flight per client (current or retired).
        var leases: [ObjectIdentifier: Int] = [:]
        /// Retired clients still serving requests, shut down when their last request ends.
        var retired: [ObjectIdentifier: HTTPClient] = [:]
        /// Clients made so far (current, retired and shut down).
        var made = 0
    }

    /// A pooled client lent to one request; give it back with ``release(_:reusable:)``.
    struct Lease: Sendable {
        let client: HTTPClient
        fileprivate let key: PoolKey
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

    /// The pooled client for requests to `mapping` (nil: the system's DNS and roots) whose connection attempts may
    /// take at most `connectTimeout`. There is no cap on connections per host: a request that finds no idle
    /// connection opens one at once, so no request ever waits for another one's connection.
    func lease(mapping: Int?, connectTimeout: Duration) -> Lease {
        let key = PoolKey(mapping: mapping, connectTimeout: connectTimeout)
        return pools.withLock { pools in
            let client: HTTPClient
            if let current = pools.current[key] {
                client = current
            } else {
                client = makePooledClient(key)
                pools.current[key] = client
                pools.made += 1
            }
            pools.leases[ObjectIdentifier(client), default: 0] += 1
            return Lease(client: client, key: key)
        }
    }

    /// Ends a request made with a leased client. `reusable: false` when the connection may hold bytes that belong to
    /// no response (e.g. a body sent after a 304): the client is retired and shut down once its last request ends, so
    /// that connection is never used again.
    func release(_ lease: Lease, reusable: Bool) {
        let id = ObjectIdentifier(lease.client)
        let finished: HTTPClient? = pools.withLock { pools in
            if !reusable, pools.current[lease.key] === lease.client {
                pools.current[lease.key] = nil
                pools.retired[id] = lease.client
            }
            let left = (pools.leases[id] ?? 1) - 1
            pools.leases[id] = left > 0 ? left : nil
            guard left <= 0, let retired = pools.retired.removeValue(forKey: id) else { return nil }
            return retired
        }
        if let finished { retire(finished) }
    }

    private func makePooledClient(_ key: PoolKey) -> HTTPClient {
        let mapped = key.mapping.map { mappings[$0] }
        var configuration = HTTPClient.Configuration(
            tlsConfiguration: mapped?.tls ?? systemTLS,
            redirectConfiguration: .disallow,  // followed by hand, each hop checked
            timeout: .init(connect: max(.milliseconds(1), TimeAmount(key.connectTimeout))),
            connectionPool: .init(idleTimeout: Self.pooledIdleTimeout),
            decompression: .disabled
        )
        // A refused connection fails now, as on a device, instead of being retried until the deadline.
        configuration.connectionPool.retryConnectionEstablishment = false
        // No queue for connections: each request that finds none idle opens its own (the limit is soft: above it,
        // requests would wait for a connection, and that wait would count against their deadline).
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = Int(Int32.max)
        if let host = mapped?.host {
            configuration.dnsOverride = [host.host.lowercased(): host.address]
            configuration.httpVersion = .http1Only
        }
        configuration.http1_1ConnectionDebugInitializer = Self.boundReads
        return HTTPClient(
            eventLoopGroup: eventLoopGroup, configuration: configuration, backgroundActivityLogger: logger)
    }

    /// The most a connection reads from its socket before passing the bytes on.
    static let largestRead = 32 * 1024

    /// One socket read of at most ``largestRead`` bytes per turn of the event loop. By default a connection reads up
    /// to four times 64 KB per turn, and TLS decrypts them all into one buffer before passing it on; that buffer grows
    /// to fit and is kept while the connection lives, so each pooled connection that carried a large image would hold
    /// half a megabyte or more. 32 KB is two TLS records: a small image still arrives in one read.
    @Sendable private static func boundReads(_ channel: any Channel) -> EventLoopFuture<Void> {
        channel.setOption(ChannelOptions.maxMessagesPerRead, value: 1).flatMap {
            channel.setOption(
                ChannelOptions.recvAllocator,
                value: AdaptiveRecvByteBufferAllocator(minimum: 1024, initial: largestRead / 2, maximum: largestRead))
        }
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

    /// Shuts down the pooled clients (requests still in flight on them fail) and waits until every client has shut
    /// down. Idempotent; clients may still be made afterwards.
    func shutdown() async {
        let pooled: [HTTPClient] = pools.withLock { pools in
            let all = Array(pools.current.values) + Array(pools.retired.values)
            pools.current = [:]
            pools.retired = [:]
            pools.leases = [:]
            return all
        }
        for client in pooled { retire(client) }
        while let next = retiring.withLock({ $0.tasks.values.first }) {
            await next.value
        }
    }
}
