import NIOCore

/// Ends each HTTP/2 response stream on its last frame, as Apple's servers do, instead of on an empty DATA frame
/// after it.
///
/// Hummingbird ends every response with an empty DATA frame carrying END_STREAM, after the HEADERS (a 200 with no
/// body) or after the body. That is valid HTTP/2, but clients built on the assumption that every DATA frame is a
/// JSON reason (aioapns parses each one) fail on the empty one and drop the connection. This handler sits between
/// TLS and NIO's HTTP/2 handler, holds what is written until the flush, and within it moves END_STREAM from such
/// an empty frame onto the frame before it on the same stream, dropping the empty frame. Everything else passes
/// unchanged and in order.
final class StreamEndFolder: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = IOData
    typealias OutboundOut = IOData

    private var pending: ByteBuffer?
    private var promises: [EventLoopPromise<Void>] = []
    /// The bytes before the first whole frame: the server preface is whole, so this only matters if a write
    /// ever splits a frame across flushes; such bytes pass unchanged.
    private var unparsed = false

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard case .byteBuffer(var bytes) = unwrapOutboundIn(data) else {
            // Not something HTTP/2 writes; let it and whatever is held go in order.
            flushPending(context: context)
            context.write(data, promise: promise)
            return
        }
        if pending == nil {
            pending = bytes
        } else {
            pending!.writeBuffer(&bytes)
        }
        if let promise { promises.append(promise) }
    }

    func flush(context: ChannelHandlerContext) {
        flushPending(context: context)
        context.flush()
    }

    private func flushPending(context: ChannelHandlerContext) {
        guard var bytes = pending else { return }
        pending = nil
        let written = promises
        promises = []
        if !unparsed { unparsed = !Self.fold(&bytes) }
        let promise: EventLoopPromise<Void>? = written.isEmpty ? nil : context.eventLoop.makePromise()
        if let promise {
            promise.futureResult.whenComplete { result in
                for each in written { each.completeWith(result) }
            }
        }
        context.write(wrapOutboundOut(.byteBuffer(bytes)), promise: promise)
    }

    /// Folds empty END_STREAM DATA frames in `bytes`, a run of whole frames, into the frame before them on the
    /// same stream. False (and `bytes` unchanged) when they are not whole frames.
    static func fold(_ bytes: inout ByteBuffer) -> Bool {
        var frames: [(start: Int, length: Int, type: UInt8, flags: UInt8, stream: UInt32)] = []
        var index = bytes.readerIndex
        let end = bytes.writerIndex
        while index < end {
            guard index + HTTP2Wire.frameHeaderLength <= end,
                let header = bytes.getBytes(at: index, length: HTTP2Wire.frameHeaderLength)
            else { return false }
            let length = Int(header[0]) << 16 | Int(header[1]) << 8 | Int(header[2])
            guard index + HTTP2Wire.frameHeaderLength + length <= end else { return false }
            let stream = header[5...8].reduce(UInt32(0)) { $0 << 8 | UInt32($1) } & 0x7FFF_FFFF
            frames.append((index, HTTP2Wire.frameHeaderLength + length, header[3], header[4], stream))
            index += HTTP2Wire.frameHeaderLength + length
        }
        var dropped: Set<Int> = []
        var last: [UInt32: Int] = [:]
        for (position, frame) in frames.enumerated() {
            defer { last[frame.stream] = position }
            guard frame.type == HTTP2Wire.dataType, frame.length == HTTP2Wire.frameHeaderLength,
                frame.flags & HTTP2Wire.endStream != 0,
                frame.stream != 0, let previous = last[frame.stream]
            else { continue }
            let before = frames[previous]
            // HEADERS without END_STREAM (a response head: trailers would carry it already) or DATA.
            guard before.type == HTTP2Wire.dataType || before.type == HTTP2Wire.headersType,
                before.flags & HTTP2Wire.endStream == 0
            else {
                continue
            }
            bytes.setInteger(before.flags | HTTP2Wire.endStream, at: before.start + 4)
            frames[previous].flags |= HTTP2Wire.endStream
            dropped.insert(position)
        }
        guard !dropped.isEmpty else { return true }
        var folded = ByteBufferAllocator().buffer(capacity: bytes.readableBytes)
        for (position, frame) in frames.enumerated() where !dropped.contains(position) {
            var slice = bytes.getSlice(at: frame.start, length: frame.length)!
            folded.writeBuffer(&slice)
        }
        bytes = folded
        return true
    }
}
