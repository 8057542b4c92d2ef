import NIOCore
import NIOHTTP2
import NIOTLS

/// Picks HTTP/1.1 or HTTP/2 for one TLS connection, as Apple's servers do: by ALPN when the client offered it
/// (`h2`, `http/1.1`), and otherwise by the first bytes the client sends. The HTTP/2 connection preface
/// (`PRI * HTTP/2.0…`) means HTTP/2 with prior knowledge over TLS, which clients such as aioapns speak without
/// offering ALPN; anything else is HTTP/1.1.
///
/// Sits right after the TLS handler; holds every byte until the pipeline for the chosen version is in place,
/// then passes them on and removes itself.
final class HTTPVersionSelector<HTTP1Output: Sendable, HTTP2Output: Sendable>: ChannelInboundHandler,
    RemovableChannelHandler
{
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias Result = NIONegotiatedHTTPVersion<HTTP1Output, HTTP2Output>

    /// The client connection preface of RFC 9113 § 3.4.
    static var preface: [UInt8] { Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8) }

    /// What the first bytes say, once they say enough.
    enum Sniffed: Equatable { case http1, http2 }

    /// `http2` once `bytes` hold the whole preface, `http1` as soon as they depart from it, nil while they are a
    /// proper prefix of it.
    static func sniff(_ bytes: some Collection<UInt8>) -> Sniffed? {
        let preface = Self.preface
        let count = min(bytes.count, preface.count)
        guard bytes.prefix(count).elementsEqual(preface.prefix(count)) else { return .http1 }
        return count == preface.count ? .http2 : nil
    }

    private enum State {
        /// TLS has not finished its handshake.
        case handshaking
        /// No ALPN protocol was chosen: waiting for enough bytes to recognise the preface.
        case sniffing
        /// The pipeline for a version is being set up.
        case configuring
        case done
    }

    private var state = State.handshaking
    private var buffered: ByteBuffer?
    private var promise: EventLoopPromise<Result>?
    private let http1: (any Channel) -> EventLoopFuture<HTTP1Output>
    private let http2: (any Channel) -> EventLoopFuture<HTTP2Output>

    init(
        http1: @escaping (any Channel) -> EventLoopFuture<HTTP1Output>,
        http2: @escaping (any Channel) -> EventLoopFuture<HTTP2Output>
    ) {
        self.http1 = http1
        self.http2 = http2
    }

    /// The version chosen and what its initializer returned; fails when the connection ends first.
    var result: EventLoopFuture<Result> {
        guard let promise else { preconditionFailure("the selector is not in a pipeline yet") }
        return promise.futureResult
    }

    func handlerAdded(context: ChannelHandlerContext) {
        promise = context.eventLoop.makePromise()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        promise?.fail(ChannelError.inappropriateOperationForState)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case .handshaking = state, let event = event as? TLSUserEvent,
            case .handshakeCompleted(let negotiated) = event
        {
            switch negotiated {
            case "h2": select(.http2, context: context)
            case "http/1.1": select(.http1, context: context)
            case nil:
                state = .sniffing
                sniffBuffered(context: context)
            default:
                promise?.fail(NIOHTTP2Errors.invalidALPNToken())
                context.close(promise: nil)
            }
        }
        context.fireUserInboundEventTriggered(event)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var bytes = unwrapInboundIn(data)
        guard case .done = state else {
            if buffered == nil {
                buffered = bytes
            } else {
                buffered!.writeBuffer(&bytes)
            }
            if case .sniffing = state { sniffBuffered(context: context) }
            return
        }
        context.fireChannelRead(data)
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        switch state {
        case .handshaking, .sniffing:
            // Not enough yet: ask for more even when the channel does not read by itself.
            context.read()
        case .configuring:
            break
        case .done:
            context.fireChannelReadComplete()
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        promise?.fail(ChannelError.outputClosed)
        context.fireChannelInactive()
    }

    private func sniffBuffered(context: ChannelHandlerContext) {
        guard let buffered, let sniffed = Self.sniff(buffered.readableBytesView) else { return }
        select(sniffed, context: context)
    }

    private func select(_ version: Sniffed, context: ChannelHandlerContext) {
        state = .configuring
        let channel = context.channel
        let configured: EventLoopFuture<Result> =
            switch version {
            case .http1: http1(channel).map { .http1_1($0) }
            case .http2: http2(channel).map { .http2($0) }
            }
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        configured.hop(to: context.eventLoop).whenComplete { result in
            let (selector, context) = bound.value
            selector.configured(result, context: context)
        }
    }

    private func configured(_ result: Swift.Result<Result, any Error>, context: ChannelHandlerContext) {
        state = .done
        switch result {
        case .success(let value):
            promise?.succeed(value)
            promise = nil
            if let bytes = buffered {
                buffered = nil
                context.fireChannelRead(wrapInboundOut(bytes))
                context.fireChannelReadComplete()
            }
            context.pipeline.syncOperations.removeHandler(self, promise: nil)
        case .failure(let error):
            promise?.fail(error)
            promise = nil
            context.fireErrorCaught(error)
            context.close(promise: nil)
        }
    }
}
