import Foundation
import NIOCore
import NIOPosix
import RichPushNetwork

/// The network as one notification's extension process sees it: its `https_proxy` and `http_proxy`, on loopback.
///
/// - `CONNECT fixtures.richpush.test:443` is tunnelled to the embedded fixture CDN, which reports each request it
///   answers on that tunnel (method, URL, status, bytes, time) to this notification.
/// - `CONNECT` to any other host is tunnelled to it, and reported as a tunnel (its contents are the extension's
///   TLS, not seen here).
/// - A plain `http://` request is refused as App Transport Security refuses it: the connection is closed
///   unanswered and nothing reaches any server.
///
/// A tunnel reads from one side only while the other can take more (``TunnelGlue``): a fast server and a slow
/// extension hold at most a socket buffer's worth in between, not the whole body.
///
/// The proxy is where the extension's requests go because URLSession honours `https_proxy`; it is not a wall. The
/// extension's process has no network namespace of its own (``ExtensionSandbox``), so a client that ignores the proxy
/// variables reaches the network directly.
final class ExtensionProxy: Sendable {
    let port: Int
    private let channel: any Channel

    private init(port: Int, channel: any Channel) {
        self.port = port
        self.channel = channel
    }

    /// Listens on 127.0.0.1 (an ephemeral port); `report` receives one line per request or tunnel.
    static func start(
        fixtureCDN: FixtureCDN?, report: @escaping @Sendable (String) -> Void
    ) async throws -> ExtensionProxy {
        let route = ProxyRoute(fixtureCDN: fixtureCDN, report: report)
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(ProxyFrontHandler(route: route))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        return ExtensionProxy(port: channel.localAddress?.port ?? 0, channel: channel)
    }

    /// Stops listening; tunnels still open end with their connections.
    func stop() async {
        try? await channel.close()
    }
}

/// Where the proxy sends what.
struct ProxyRoute: Sendable {
    let fixtureCDN: FixtureCDN?
    let report: @Sendable (String) -> Void
}

/// The client's side of one proxy connection: reads the request head, then either tunnels or refuses.
final class ProxyFrontHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private enum State {
        case readingHead(ByteBuffer)
        case connecting([ByteBuffer])
        case tunnelling(any Channel)
        case closed
    }

    private let route: ProxyRoute
    private var state = State.readingHead(ByteBuffer())
    /// A request head longer than this is not a proxy request.
    static let maxHeadBytes = 16 * 1024

    init(route: ProxyRoute) {
        self.route = route
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var bytes = unwrapInboundIn(data)
        switch state {
        case .readingHead(var head):
            head.writeBuffer(&bytes)
            guard let end = head.readableBytesView.firstRange(of: Array("\r\n\r\n".utf8)) else {
                if head.readableBytes > Self.maxHeadBytes {
                    route.report("a request head over \(Self.maxHeadBytes) bytes: connection closed")
                    close(context)
                } else {
                    state = .readingHead(head)
                }
                return
            }
            let headLength = end.upperBound - head.readableBytesView.startIndex
            let text = head.readString(length: headLength) ?? ""
            let rest = head
            handle(head: text, rest: rest, context: context)
        case .connecting(var pending):
            pending.append(bytes)
            state = .connecting(pending)
        case .tunnelling:
            // The glue handlers carry the tunnel; nothing reaches this handler once it is in place.
            context.fireChannelRead(data)
        case .closed:
            break
        }
    }

    private func handle(head: String, rest: ByteBuffer, context: ChannelHandlerContext) {
        let requestLine = head.split(separator: "\r\n", maxSplits: 1).first.map(String.init) ?? ""
        let parts = requestLine.split(separator: " ")
        guard parts.count == 3 else {
            route.report("a request the proxy does not understand (\(requestLine.prefix(80))): connection closed")
            close(context)
            return
        }
        let method = String(parts[0])
        let target = String(parts[1])
        guard method == "CONNECT" else {
            // http_proxy: an absolute-form request for a plain http:// URL.
            route.report(
                "\(method) \(target) refused: App Transport Security allows https only; no request left the device")
            close(context)
            return
        }
        guard let colon = target.lastIndex(of: ":"), let port = Int(target[target.index(after: colon)...]) else {
            route.report("CONNECT \(target) refused: no port")
            close(context)
            return
        }
        let host = String(target[..<colon])
        let fixture = route.fixtureCDN.flatMap { cdn in host == FixtureCDN.host && port == 443 ? cdn : nil }
        let connectHost = fixture == nil ? host : "127.0.0.1"
        let connectPort = fixture?.port ?? port
        state = .connecting(rest.readableBytes > 0 ? [rest] : [])
        let route = self.route
        // The server's side reads nothing until its glue is in place.
        let connected = ClientBootstrap(group: context.eventLoop)
            .channelOption(.autoRead, value: false)
            .connect(host: connectHost, port: connectPort)
        let loopBoundSelf = NIOLoopBound(self, eventLoop: context.eventLoop)
        let loopBoundContext = NIOLoopBound(context, eventLoop: context.eventLoop)
        connected.whenComplete { result in
            let handler = loopBoundSelf.value
            let context = loopBoundContext.value
            switch result {
            case .success(let peer):
                guard case .connecting(let pending) = handler.state else {
                    peer.close(promise: nil)
                    return
                }
                if let fixture, let localPort = peer.localAddress?.port {
                    fixture.requests.observe(port: localPort, route.report)
                    peer.closeFuture.whenComplete { _ in fixture.requests.forget(port: localPort) }
                } else {
                    route.report("CONNECT \(host):\(port): tunnelled (not the fixture CDN; its contents are not seen)")
                }
                handler.state = .tunnelling(peer)
                context.writeAndFlush(
                    handler.wrapOutboundOut(ByteBuffer(string: "HTTP/1.1 200 Connection Established\r\n\r\n")),
                    promise: nil)
                for buffer in pending { peer.write(buffer, promise: nil) }
                peer.flush()
                let (local, remote) = TunnelGlue.matchedPair()
                do {
                    try context.pipeline.syncOperations.addHandler(local)
                    try peer.pipeline.syncOperations.addHandler(remote)
                } catch {
                    peer.close(promise: nil)
                    handler.close(context)
                    return
                }
                context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
                _ = peer.setOption(.autoRead, value: true)
            case .failure(let error):
                route.report("CONNECT \(host):\(port) failed: \(error)")
                context.writeAndFlush(
                    handler.wrapOutboundOut(
                        ByteBuffer(string: "HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n")),
                    promise: nil)
                handler.close(context)
            }
        }
    }

    private func close(_ context: ChannelHandlerContext) {
        state = .closed
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        if case .tunnelling(let peer) = state { peer.close(promise: nil) }
        state = .closed
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        close(context)
    }
}
