import NIOCore

/// One side of a proxy tunnel, glued to the other: what one side reads is written to the other, and a side reads only
/// while the other can take more (its channel is writable), so a fast sender and a slow receiver hold no more than
/// the channels' buffers in between. The pattern is swift-nio's `GlueHandler` (apple/swift-nio,
/// Sources/NIOConnectProxy/GlueHandler.swift); this is richpush's own.
final class TunnelGlue: ChannelDuplexHandler {
    typealias InboundIn = NIOAny
    typealias OutboundIn = NIOAny
    typealias OutboundOut = NIOAny

    private var partner: TunnelGlue?
    private var context: ChannelHandlerContext?
    /// A read the channel asked for while the partner could take nothing; issued when it can.
    private var pendingRead = false

    private init() {}

    /// Two glue handlers for the two channels of one tunnel, which must share an event loop.
    static func matchedPair() -> (TunnelGlue, TunnelGlue) {
        let first = TunnelGlue()
        let second = TunnelGlue()
        first.partner = second
        second.partner = first
        return (first, second)
    }

    private var partnerWritable: Bool { partner?.context?.channel.isWritable ?? false }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
        partner = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        partner?.context?.write(data, promise: nil)
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        partner?.context?.flush()
    }

    func channelInactive(context: ChannelHandlerContext) {
        partner?.closeAfterPendingWrites()
        context.fireChannelInactive()
    }

    /// Closes once everything written so far has gone out: a close fails the writes still pending, and the end of a
    /// body would be lost.
    private func closeAfterPendingWrites() {
        guard let context else { return }
        let written = context.eventLoop.makePromise(of: Void.self)
        context.writeAndFlush(NIOAny(ByteBuffer()), promise: written)
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        written.futureResult.whenComplete { _ in bound.value.close(promise: nil) }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        // This side can take more again: the partner may read.
        if context.channel.isWritable { partner?.readIfPending() }
        context.fireChannelWritabilityChanged()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    func read(context: ChannelHandlerContext) {
        if partnerWritable {
            context.read()
        } else {
            pendingRead = true
        }
    }

    private func readIfPending() {
        guard pendingRead, let context else { return }
        pendingRead = false
        context.read()
    }
}
