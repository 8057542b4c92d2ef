import NIOCore
import NIOHPACK

/// The largest header list (RFC 9113 § 6.5.2: names, values and 32 bytes per field) a request may carry, and how
/// an oversized request is answered: on its own stream, while the connection serves the others.
enum HeaderListLimit {
    /// NIO's HTTP/2 limit, advertised in the server's SETTINGS; HTTP/1.1 requests are held to the same.
    static let bytes = 16_384
    /// A larger list than this is not decoded at all: the connection is closed, as NIO closes it.
    static let decodedBytes = 1 << 20
    /// The field by which ``HeaderListLimiter`` tells the responder the size of a list it left out.
    static let markerField = "richpush-header-list-size"

    /// The size of a header list as HTTP/2 counts it.
    static func size(of fields: some Sequence<(name: String, value: String)>) -> Int {
        fields.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 32 }
    }
}

/// Keeps an oversized header list from closing an HTTP/2 connection.
///
/// NIO's HTTP/2 handler treats a header block over its limit (16 KB) as a connection error, so one 64 KB header
/// would end every request on the connection. This handler sits between TLS and the HTTP/2 handler, decodes each
/// header block itself (up to ``HeaderListLimit/decodedBytes``) and passes it on re-encoded without indexing, so
/// the HTTP/2 handler's HPACK table stays empty and in step. A list over ``HeaderListLimit/bytes`` is passed on
/// as its pseudo-header fields (shortened) plus ``HeaderListLimit/markerField`` with its size, so the request is
/// answered on its stream. Every other frame passes unchanged. Anything it cannot follow (a malformed block,
/// a list over the decoding limit) is passed on as it came, and the HTTP/2 handler ends the connection as before.
///
/// So that clients which respect the server's SETTINGS_MAX_HEADER_LIST_SIZE (curl and every nghttp2 client refuse
/// to send a larger list) send such a request at all, the server's first SETTINGS frame is rewritten on its way
/// out to advertise ``HeaderListLimit/decodedBytes``.
final class HeaderListLimiter: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = IOData
    typealias OutboundOut = IOData

    /// SETTINGS_MAX_FRAME_SIZE's default, which the server does not raise.
    private static let maxFrameLength = 16_384

    private enum Mode {
        /// The client's 24-byte connection preface is still to come.
        case preface
        case frames
        /// A frame this handler does not look into: this many of its payload bytes are still to pass.
        case passing(remaining: Int)
        /// Given up (see the type's description): everything passes unchanged.
        case transparent
    }

    /// A header block whose CONTINUATION frames are still to come.
    private struct OpenBlock {
        var streamID: UInt32
        var flags: UInt8
        var priority: ByteBuffer?
        var fragments: ByteBuffer
        /// The frames as they came, passed on unchanged if this handler gives up.
        var raw: ByteBuffer
    }

    private var mode = Mode.preface
    private var sentSettings = false
    private var pending: ByteBuffer?
    private var block: OpenBlock?
    private var decoder: HPACKDecoder
    private var encoder: HPACKEncoder
    private let allocator: ByteBufferAllocator

    init(allocator: ByteBufferAllocator = ByteBufferAllocator()) {
        self.allocator = allocator
        decoder = HPACKDecoder(
            allocator: allocator, maxDynamicTableSize: HPACKDecoder.maxDynamicTableSize,
            maxHeaderListSize: HeaderListLimit.decodedBytes)
        encoder = HPACKEncoder(allocator: allocator, useHuffmanEncoding: false)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var bytes = unwrapInboundIn(data)
        if case .transparent = mode {
            context.fireChannelRead(data)
            return
        }
        if pending == nil {
            pending = bytes
        } else {
            pending!.writeBuffer(&bytes)
        }
        var output = allocator.buffer(capacity: pending!.readableBytes)
        process(into: &output)
        if output.readableBytes > 0 {
            context.fireChannelRead(wrapInboundOut(output))
        }
        if pending?.readableBytes == 0 { pending = nil }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard !sentSettings else { return context.write(data, promise: promise) }
        sentSettings = true
        guard case .byteBuffer(var frame) = unwrapOutboundIn(data) else { return context.write(data, promise: promise) }
        Self.advertiseDecodedLimit(in: &frame)
        context.write(wrapOutboundOut(.byteBuffer(frame)), promise: promise)
    }

    /// In the server's SETTINGS frame at the start of `bytes`, SETTINGS_MAX_HEADER_LIST_SIZE becomes
    /// ``HeaderListLimit/decodedBytes``.
    static func advertiseDecodedLimit(in bytes: inout ByteBuffer) {
        let start = bytes.readerIndex
        guard let header = bytes.getBytes(at: start, length: HTTP2Wire.frameHeaderLength),
            header[3] == HTTP2Wire.settingsType,
            header[5...8].allSatisfy({ $0 == 0 })
        else { return }
        let length = Int(header[0]) << 16 | Int(header[1]) << 8 | Int(header[2])
        guard bytes.readableBytes >= HTTP2Wire.frameHeaderLength + length else { return }
        let maxHeaderListSize: UInt16 = 0x6
        for entry in stride(
            from: start + HTTP2Wire.frameHeaderLength, to: start + HTTP2Wire.frameHeaderLength + length - 5, by: 6)
        where bytes.getInteger(at: entry, as: UInt16.self) == maxHeaderListSize {
            bytes.setInteger(UInt32(HeaderListLimit.decodedBytes), at: entry + 2)
        }
    }

    /// Moves what `pending` holds, as far as it is complete, to `output`.
    private func process(into output: inout ByteBuffer) {
        while var input = pending, input.readableBytes > 0 {
            switch mode {
            case .transparent:
                output.writeBuffer(&input)
                pending = input
                return
            case .preface:
                let prefaceLength = 24
                guard input.readableBytes >= prefaceLength, var preface = input.readSlice(length: prefaceLength)
                else { return }
                output.writeBuffer(&preface)
                pending = input
                mode = .frames
            case .passing(let remaining):
                let count = min(remaining, input.readableBytes)
                var slice = input.readSlice(length: count)!
                output.writeBuffer(&slice)
                pending = input
                mode = remaining == count ? .frames : .passing(remaining: remaining - count)
            case .frames:
                guard let header = input.getBytes(at: input.readerIndex, length: HTTP2Wire.frameHeaderLength) else {
                    return
                }
                let length = Int(header[0]) << 16 | Int(header[1]) << 8 | Int(header[2])
                let type = header[3]
                guard type == HTTP2Wire.headersType || type == HTTP2Wire.continuationType || block != nil else {
                    mode = .passing(remaining: HTTP2Wire.frameHeaderLength + length)
                    continue
                }
                guard length <= Self.maxFrameLength else {
                    giveUp(into: &output)
                    continue
                }
                guard var frame = input.readSlice(length: HTTP2Wire.frameHeaderLength + length) else { return }
                pending = input
                readHeaderFrame(&frame, into: &output)
            }
        }
    }

    /// A HEADERS or CONTINUATION frame, whole.
    private func readHeaderFrame(_ frame: inout ByteBuffer, into output: inout ByteBuffer) {
        let raw = frame
        let header = frame.readBytes(length: HTTP2Wire.frameHeaderLength)!
        let type = header[3]
        let flags = header[4]
        let streamID =
            (UInt32(header[5]) << 24 | UInt32(header[6]) << 16 | UInt32(header[7]) << 8 | UInt32(header[8]))
            & 0x7FFF_FFFF
        var payload = frame

        if type == HTTP2Wire.headersType, block == nil {
            var padding = 0
            if flags & HTTP2Wire.padded != 0 {
                guard let length = payload.readInteger(as: UInt8.self) else { return restore(raw, into: &output) }
                padding = Int(length)
            }
            var priority: ByteBuffer?
            if flags & HTTP2Wire.priority != 0 {
                guard let fields = payload.readSlice(length: 5) else { return restore(raw, into: &output) }
                priority = fields
            }
            guard padding <= payload.readableBytes,
                let fragment = payload.readSlice(length: payload.readableBytes - padding)
            else { return restore(raw, into: &output) }
            block = OpenBlock(streamID: streamID, flags: flags, priority: priority, fragments: fragment, raw: raw)
        } else if type == HTTP2Wire.continuationType, var open = block, open.streamID == streamID {
            var raw = raw
            open.fragments.writeBuffer(&payload)
            open.raw.writeBuffer(&raw)
            block = open
            guard open.fragments.readableBytes <= HeaderListLimit.decodedBytes else {
                return giveUp(into: &output)
            }
            guard flags & HTTP2Wire.endHeaders != 0 else { return }
        } else {
            // A frame out of place in a header block: the HTTP/2 handler will say so.
            return restore(raw, into: &output)
        }

        guard flags & HTTP2Wire.endHeaders != 0, let open = block else { return }
        var fragments = open.fragments
        guard let fields = try? decoder.decodeHeaders(from: &fragments) else { return giveUp(into: &output) }
        block = nil
        let list = fields.map { (name: $0.name, value: $0.value) }
        let size = HeaderListLimit.size(of: list)
        let passed: [(name: String, value: String)]
        if size <= HeaderListLimit.bytes {
            passed = list.filter { $0.name != HeaderListLimit.markerField }
        } else {
            passed =
                list.filter { $0.name.hasPrefix(":") || $0.name == "content-length" }.map {
                    (name: $0.name, value: String($0.value.utf8.prefix(2048)) ?? "")
                } + [(name: HeaderListLimit.markerField, value: String(size))]
        }
        writeHeaders(passed, of: open, into: &output)
    }

    /// One HEADERS frame with the fields encoded without indexing.
    private func writeHeaders(
        _ fields: [(name: String, value: String)], of block: OpenBlock, into output: inout ByteBuffer
    ) {
        var encoded = allocator.buffer(capacity: 256)
        var headers = HPACKHeaders()
        for field in fields { headers.add(name: field.name, value: field.value, indexing: .nonIndexable) }
        guard (try? encoder.encode(headers: headers, to: &encoded)) != nil else {
            return restore(block.raw, into: &output)
        }
        var priority = block.priority
        let length = encoded.readableBytes + (priority?.readableBytes ?? 0)
        let flags = block.flags & (HTTP2Wire.endStream | HTTP2Wire.priority) | HTTP2Wire.endHeaders
        output.writeInteger(UInt8(truncatingIfNeeded: length >> 16))
        output.writeInteger(UInt8(truncatingIfNeeded: length >> 8))
        output.writeInteger(UInt8(truncatingIfNeeded: length))
        output.writeInteger(HTTP2Wire.headersType)
        output.writeInteger(flags)
        output.writeInteger(block.streamID)
        if priority != nil { output.writeBuffer(&priority!) }
        output.writeBuffer(&encoded)
    }

    /// Passes on the open block as it came, then `raw`, and everything after them unchanged.
    private func restore(_ raw: ByteBuffer, into output: inout ByteBuffer) {
        giveUp(into: &output)
        var raw = raw
        output.writeBuffer(&raw)
    }

    /// Passes on the open block as it came and everything after it, unchanged.
    private func giveUp(into output: inout ByteBuffer) {
        if var open = block { output.writeBuffer(&open.raw) }
        block = nil
        mode = .transparent
    }
}
