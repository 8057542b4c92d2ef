import HummingbirdCore
import HummingbirdHTTP2
import Logging
import NIOCore
import NIOHTTP2
import NIOSSL

/// One connection to the push server: TLS, then HTTP/1.1 or HTTP/2 as ``HTTPVersionSelector`` picks (ALPN, or
/// the HTTP/2 preface when the client offered no ALPN), or HTTP/2 with prior knowledge without TLS
/// (`--plaintext`). HTTP/2 connections get a ``HeaderListLimiter`` and a ``StreamEndFolder`` in front of NIO's
/// HTTP/2 handler.
///
/// Hummingbird's own `http2Upgrade` treats a TLS connection without ALPN as HTTP/1.1, which shuts out clients
/// that speak HTTP/2 over TLS without offering ALPN (aioapns, older Ruby and PHP clients); Apple's servers
/// accept them.
struct PushServerChannel: HTTPChannelHandler {
    struct Value: ServerChildChannelValue {
        let version: EventLoopFuture<NIONegotiatedHTTPVersion<HTTP1Channel.Value, HTTP2Channel.Value>>
        let channel: any Channel
    }

    private let sslContext: NIOSSLContext?
    private let http1: HTTP1Channel
    private let http2: HTTP2Channel
    var responder: Responder { http1.responder }

    /// - Parameter tlsConfiguration: nil for HTTP/2 without TLS.
    init(tlsConfiguration: TLSConfiguration?, responder: @escaping Responder) throws {
        if var tlsConfiguration {
            tlsConfiguration.applicationProtocols = ["h2", "http/1.1"]
            sslContext = try NIOSSLContext(configuration: tlsConfiguration)
        } else {
            sslContext = nil
        }
        // Each request is answered with a ResponseWritten token, signalled once the response is written.
        let answering: Responder = { request, writer, channel in
            let written = ResponseWritten.answering()
            defer { written.finish() }
            try await responder(request, writer, channel)
        }
        http1 = HTTP1Channel(responder: answering)
        http2 = HTTP2Channel(responder: answering)
    }

    static func builder(tlsConfiguration: TLSConfiguration?) -> HTTPServerBuilder {
        HTTPServerBuilder { responder in try PushServerChannel(tlsConfiguration: tlsConfiguration, responder: responder)
        }
    }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let http2 = self.http2
        let startHTTP2 = { (channel: any Channel) -> EventLoopFuture<HTTP2Channel.Value> in
            do {
                try channel.pipeline.syncOperations.addHandlers(
                    HeaderListLimiter(allocator: channel.allocator), StreamEndFolder())
            } catch {
                return channel.eventLoop.makeFailedFuture(error)
            }
            return http2.setup(channel: channel, logger: logger)
        }
        guard let sslContext else {
            return startHTTP2(channel).map {
                Value(version: channel.eventLoop.makeSucceededFuture(.http2($0)), channel: channel)
            }
        }
        let http1 = self.http1
        return channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: sslContext))
            let selector = HTTPVersionSelector<HTTP1Channel.Value, HTTP2Channel.Value>(
                http1: { http1.setup(channel: $0, logger: logger) }, http2: startHTTP2)
            try channel.pipeline.syncOperations.addHandler(selector)
            return Value(version: selector.result, channel: channel)
        }
    }

    func handle(value: Value, logger: Logger) async {
        do {
            switch try await value.version.get() {
            case .http1_1(let connection): await http1.handle(value: connection, logger: logger)
            case .http2(let connection): await http2.handle(value: connection, logger: logger)
            }
        } catch {
            logger.debug("connection ended before its HTTP version was known: \(error)")
        }
    }
}
