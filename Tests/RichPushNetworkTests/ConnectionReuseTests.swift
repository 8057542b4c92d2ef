import Foundation
import NIOCore
import NIOPosix
import NIOSSL
import RichPushCore
import RichPushNetwork
import Synchronization
import Testing
import RichPushTestSupport

/// Connections to the same host are reused, and nothing a response leaves on a connection reaches another download.
@Suite("Connection reuse")
struct ConnectionReuseTests {
    @Test("100 downloads from one host (50 one after the other, 50 ten at a time) reuse a few connections, not 100")
    func reuseAcrossDownloads() async throws {
        try await withHarness { harness in
            let expected = sha256Hex(try fixtureBytes("cat.png"))
            for round in 0..<50 {
                let (result, _) = await harness.download("cat.png")
                let image = try #require(result.success, "download \(round): \(String(describing: result.failure))")
                #expect(image.sha256 == expected)
                await harness.downloader.discard(image)
            }
            let sequential = harness.cdn.traffic
            #expect(sequential.requests == 50)
            // One connection, give or take a download that starts before the last one's connection is back in the
            // pool (a race a loaded machine can lose); without reuse it would be 50.
            #expect(
                sequential.connections <= 3,
                "50 downloads one after the other made \(sequential.connections) connections, not one or two")

            let concurrency = 10
            let hashes = try await withThrowingTaskGroup(of: [String].self) { group in
                for _ in 0..<concurrency {
                    group.addTask {
                        var hashes: [String] = []
                        for _ in 0..<5 {
                            let image = try await harness.downloader.download(
                                harness.url("cat.png"), limits: Harness.patientLimits, events: { _ in })
                            hashes.append(image.sha256)
                            await harness.downloader.discard(image)
                        }
                        return hashes
                    }
                }
                return try await group.reduce(into: []) { $0 += $1 }
            }
            #expect(hashes.count == 50 && hashes.allSatisfy { $0 == expected })

            let traffic = harness.cdn.traffic
            #expect(traffic.requests == 100)
            // The sequential downloads' connections, then about one per download in flight at once (again give or
            // take a connection not yet back in the pool); without reuse it would be 100.
            #expect(
                traffic.connections <= sequential.connections + concurrency + 5,
                "100 downloads made \(traffic.connections) connections; at most \(concurrency) are in flight at once")
            // At most one TLS handshake per connection (no renegotiation). Not "exactly one": a connection the client
            // opened for a download that an older connection then served may still be in its handshake now (a loaded
            // CI machine showed 8 connections and 3 handshakes at this point).
            #expect(
                traffic.tlsHandshakes >= 1 && traffic.tlsHandshakes <= traffic.connections,
                "\(traffic.tlsHandshakes) TLS handshakes on \(traffic.connections) connections")
            #expect(harness.leftovers.isEmpty)
        }
    }

    @Test("48 slow downloads in flight at once to one host each get a connection at once: none waits for a turn")
    func noWaitingForAConnection() async throws {
        try await withHarness { harness in
            // Each answer takes 3 s. With connections capped per host (async-http-client's default is 8), the later
            // downloads would wait for earlier ones on the same 8 connections, 6 rounds of 3 s, and time out under a
            // 5 s deadline. The deadline here is generous, so a loaded machine's slow handshakes cannot fail the
            // test: the connection count shows whether anyone waited for a turn.
            let count = 48
            let limits = Harness.patientLimits
            let results = await withTaskGroup(of: Result<DownloadedImage, DownloadFailure>.self) { group in
                for _ in 0..<count {
                    group.addTask { await harness.download("cat.png?delay=3s", limits: limits).result }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            let failures = results.compactMap(\.failure)
            #expect(
                failures.isEmpty, "\(failures.count) of \(count) failed, first: \(String(describing: failures.first))")
            // All 48 go out together; a few may find a finished download's connection free and take it.
            let connections = harness.cdn.traffic.connections
            #expect(
                connections >= count * 3 / 4,
                "\(connections) connections for \(count) downloads in flight: downloads waited for a connection")
            for image in results.compactMap(\.success) { await harness.downloader.discard(image) }
        }
    }

    @Test("a download that stops reading early closes its connection; the next one opens a new connection")
    func abandonedBodyIsNotReused() async throws {
        try await withHarness { harness in
            let (first, _) = await harness.download("cat.png")
            #expect(first.success != nil)
            // Refused before its 5 MB body is read.
            let (refused, _) = await harness.download("cat.png?type=text/html&pad=5MB")
            #expect(refused.failure?.reason == .notAnImage)
            let (next, _) = await harness.download("cat.png")
            let image = try #require(next.success, "\(String(describing: next.failure))")
            #expect(image.width == 640 && image.height == 480 && image.bytes == 2928)
            let traffic = harness.cdn.traffic
            #expect(traffic.requests == 3)
            // The refused download's connection was closed, so the third opened another (two in all, or three when
            // the second did not find the first's connection back in the pool yet).
            #expect(
                (2...3).contains(traffic.connections),
                "the refused download's connection was closed, the third opened another")
        }
    }

    @Test("bytes a server sends after a 304 (which has no body) never become the next download's image")
    func bodyAfterNotModifiedDoesNotSpill() async throws {
        let server = try await SmugglingServer.start()
        let storeParent = try makeTemporaryDirectory("smuggle")
        defer { try? FileManager.default.removeItem(at: storeParent) }
        let store = try AttachmentStore(parent: storeParent, logger: quietLogger)
        let downloader = try HTTPSImageDownloader(
            store: store, fixtureHost: server.mapping, logger: quietLogger)
        let recorder = EventRecorder()
        let url = { (path: String) in URL(string: "https://\(FixtureCDN.host)/\(path)")! }

        let notModified = await outcome {
            try await downloader.download(url("not-modified"), limits: Harness.patientLimits, events: recorder.record)
        }
        #expect((notModified.failure as? DownloadFailure)?.detail == "HTTP 304 Not Modified")
        for round in 1...2 {
            let result = await outcome {
                try await downloader.download(url("cat.png"), limits: Harness.patientLimits, events: { _ in })
            }
            let image = try #require(result.success, "round \(round): \(result)")
            #expect(image.format == .png, "round \(round): got the \(image.format) the server sent after the 304")
            #expect(image.sha256 == sha256Hex(try fixtureBytes("cat.png")), "round \(round)")
            await downloader.discard(image)
        }
        await downloader.shutdown()
        // Two, or three when the second round did not find the first's connection back in the pool yet.
        #expect(
            (2...3).contains(server.connections),
            "the 304's connection was never used again; the next ones shared one (or nearly)")
        try await server.stop()
        store.removeAll()
    }
}

/// A TLS server for the fixture host that answers `/not-modified` with a 304 and then, as a faulty server could,
/// sends bytes after it: a complete `200 image/gif` response (spinner.gif), written just before the answer to the
/// next request on the same connection. Every other path is cat.png. A client that reuses the 304's connection gets
/// the GIF as its answer.
final class SmugglingServer: Sendable {
    let mapping: FixtureHostMapping
    private let channel: any Channel
    private let accepted: ConnectionCount

    /// Connections accepted so far.
    var connections: Int { accepted.value.withLock { $0 } }

    private final class ConnectionCount: Sendable {
        let value = Mutex(0)
    }

    private init(mapping: FixtureHostMapping, channel: any Channel, accepted: ConnectionCount) {
        self.mapping = mapping
        self.channel = channel
        self.accepted = accepted
    }

    static func start() async throws -> SmugglingServer {
        let authority = try FixtureCertificateAuthority.generate(hostname: FixtureCDN.host)
        let context = try NIOSSLContext(configuration: try authority.serverTLSConfiguration())
        let cat = try fixtureBytes("cat.png")
        let gif = try fixtureBytes("spinner.gif")
        let accepted = ConnectionCount()
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelInitializer { channel in
                accepted.value.withLock { $0 += 1 }
                return channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context))
                    try channel.pipeline.syncOperations.addHandler(SmugglingHandler(cat: cat, gif: gif))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        let port = try #require(channel.localAddress?.port)
        return SmugglingServer(
            mapping: FixtureHostMapping(port: port, caCertificatePEM: authority.caCertificatePEM), channel: channel,
            accepted: accepted)
    }

    func stop() async throws {
        try await channel.close()
    }
}

private final class SmugglingHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let cat: Data
    private let gif: Data
    private var received = ByteBuffer()
    private var smugglePending = false

    init(cat: Data, gif: Data) {
        self.cat = cat
        self.gif = gif
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var bytes = unwrapInboundIn(data)
        received.writeBuffer(&bytes)
        // GET requests only: a request is its head, up to the empty line.
        while let text = received.getString(at: received.readerIndex, length: received.readableBytes),
            let end = text.range(of: "\r\n\r\n")
        {
            let head = String(text[..<end.lowerBound])
            received.moveReaderIndex(forwardBy: text.utf8.distance(from: text.startIndex, to: end.upperBound))
            let path = head.split(separator: " ").dropFirst().first.map(String.init) ?? "/"
            var out = context.channel.allocator.buffer(capacity: 4096)
            if smugglePending {
                smugglePending = false
                out.writeString("HTTP/1.1 200 OK\r\nContent-Type: image/gif\r\nContent-Length: \(gif.count)\r\n\r\n")
                out.writeBytes(gif)
            }
            if path == "/not-modified" {
                out.writeString("HTTP/1.1 304 Not Modified\r\n\r\n")
                smugglePending = true
            } else {
                out.writeString("HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nContent-Length: \(cat.count)\r\n\r\n")
                out.writeBytes(cat)
            }
            context.writeAndFlush(wrapOutboundOut(out), promise: nil)
        }
    }
}
