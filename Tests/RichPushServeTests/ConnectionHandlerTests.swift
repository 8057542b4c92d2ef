import NIOCore
import NIOEmbedded
import NIOHPACK
import NIOHTTP2
import NIOTLS
import RichPushTestSupport
import RichPushServeTestSupport
import Testing

@testable import RichPushServe

private let preface = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)

/// One HTTP/2 frame's bytes.
private func frame(type: UInt8, flags: UInt8, stream: UInt32, payload: [UInt8]) -> [UInt8] {
    let length = payload.count
    return [UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF), type, flags]
        + withUnsafeBytes(of: stream.bigEndian, Array.init) + payload
}

/// Splits a byte stream into frames (after the preface): type, flags, stream, payload.
private func frames(_ bytes: [UInt8]) -> [(type: UInt8, flags: UInt8, stream: UInt32, payload: [UInt8])] {
    var result: [(UInt8, UInt8, UInt32, [UInt8])] = []
    var index = 0
    while index + 9 <= bytes.count {
        let length = Int(bytes[index]) << 16 | Int(bytes[index + 1]) << 8 | Int(bytes[index + 2])
        let stream = bytes[index + 5..<index + 9].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        result.append((bytes[index + 3], bytes[index + 4], stream, Array(bytes[index + 9..<index + 9 + length])))
        index += 9 + length
    }
    return result
}

@Suite("HTTP/2 header lists over the limit are answered, not a connection error")
struct HeaderListLimiterTests {
    /// Feeds `input` to a limiter `chunk` bytes at a time and returns everything it passed on.
    func pass(_ input: [UInt8], chunk: Int) throws -> [UInt8] {
        let channel = EmbeddedChannel(handler: HeaderListLimiter())
        var output: [UInt8] = []
        for start in stride(from: 0, to: input.count, by: chunk) {
            try channel.writeInbound(ByteBuffer(bytes: input[start..<min(start + chunk, input.count)]))
            while let buffer = try channel.readInbound(as: ByteBuffer.self) { output += buffer.readableBytesView }
        }
        _ = try channel.finish()
        return output
    }

    /// Header blocks as a client's encoder writes them: indexed, so the second block refers to the first's entries.
    func clientBlocks(_ lists: [[(String, String)]]) throws -> [[UInt8]] {
        var encoder = HPACKEncoder(allocator: ByteBufferAllocator())
        return try lists.map { list in
            var buffer = ByteBuffer()
            try encoder.encode(headers: HPACKHeaders(list), to: &buffer)
            return Array(buffer.readableBytesView)
        }
    }

    let request = [
        (":method", "POST"), (":scheme", "https"), (":authority", "localhost"), (":path", "/3/device/ab"),
        ("apns-topic", "com.example.app"),
    ]

    @Test("blocks pass re-encoded: a fresh decoder (NIO's) reads the same lists, fed whole or a byte at a time")
    func passesListsInStep() throws {
        let large = request + [("x-large", String(repeating: "x", count: 65_536))]
        let blocks = try clientBlocks([request, large, request])
        // The large block as HEADERS plus CONTINUATION frames of at most 16 KB.
        var largeFrames: [UInt8] = []
        let pieces = stride(from: 0, to: blocks[1].count, by: 16_384).map {
            Array(blocks[1][$0..<min($0 + 16_384, blocks[1].count)])
        }
        for (index, piece) in pieces.enumerated() {
            let last = index == pieces.count - 1
            largeFrames += frame(type: index == 0 ? 1 : 9, flags: last ? 0x4 : 0, stream: 3, payload: piece)
        }
        let data = frame(type: 0, flags: 0x1, stream: 1, payload: Array("{}".utf8))
        let input =
            preface + frame(type: 4, flags: 0, stream: 0, payload: [])
            + frame(type: 1, flags: 0x4, stream: 1, payload: blocks[0]) + data + largeFrames
            + frame(type: 1, flags: 0x5, stream: 5, payload: blocks[2])
        for chunk in [input.count, 1, 7] {
            let output = try pass(input, chunk: chunk)
            #expect(Array(output.prefix(24)) == preface)
            let passed = frames(Array(output.dropFirst(24)))
            #expect(passed.map(\.type) == [4, 1, 0, 1, 1], "chunk \(chunk)")
            #expect(passed.map(\.stream) == [0, 1, 1, 3, 5])
            #expect(passed[4].flags == 0x5, "END_STREAM and END_HEADERS kept")
            var decoder = HPACKDecoder(allocator: ByteBufferAllocator())
            func decode(_ payload: [UInt8]) throws -> [(String, String)] {
                var buffer = ByteBuffer(bytes: payload)
                return try decoder.decodeHeaders(from: &buffer).map { ($0.name, $0.value) }
            }
            #expect(try decode(passed[1].payload).elementsEqual(request, by: ==))
            let marked = try decode(passed[3].payload)
            #expect(marked.filter { $0.0.hasPrefix(":") }.elementsEqual(request.prefix(4), by: ==))
            let size = marked.first { $0.0 == HeaderListLimit.markerField }?.1
            #expect(size == String(HeaderListLimit.size(of: large.map { (name: $0.0, value: $0.1) })))
            #expect(!marked.contains { $0.0 == "x-large" })
            // The third block refers to the client's dynamic table; it still decodes in step.
            #expect(try decode(passed[4].payload).elementsEqual(request, by: ==))
            #expect(passed[2].payload == Array("{}".utf8))
        }
    }

    @Test("a client's own marker field is dropped, so it cannot pass as an oversized list")
    func dropsClientMarker() throws {
        let block = try clientBlocks([request + [(HeaderListLimit.markerField, "99999")]])[0]
        let output = try pass(preface + frame(type: 1, flags: 0x4, stream: 1, payload: block), chunk: 1000)
        let passed = frames(Array(output.dropFirst(24)))
        var decoder = HPACKDecoder(allocator: ByteBufferAllocator())
        var buffer = ByteBuffer(bytes: passed[0].payload)
        let fields = try decoder.decodeHeaders(from: &buffer)
        #expect(!fields.contains { $0.name == HeaderListLimit.markerField })
        #expect(fields.contains { $0.name == "apns-topic" })
    }

    @Test("a block it cannot decode passes unchanged, and everything after it")
    func passesGarbageUnchanged() throws {
        let garbage = frame(type: 1, flags: 0x4, stream: 1, payload: [0xFF, 0xFF, 0xFF, 0xFF])
        let after = frame(type: 0, flags: 0, stream: 1, payload: [1, 2, 3])
        let input = preface + garbage + after
        #expect(try pass(input, chunk: 5) == input)
    }

    @Test("the server's SETTINGS advertise the decoding limit, so nghttp2 clients send large lists at all")
    func advertisesDecodingLimit() throws {
        let channel = EmbeddedChannel(handler: HeaderListLimiter())
        let settings = frame(type: 4, flags: 0, stream: 0, payload: [0, 3, 0, 0, 0, 100, 0, 6, 0, 0, 0x40, 0])
        try channel.writeOutbound(IOData.byteBuffer(ByteBuffer(bytes: settings)))
        guard case .byteBuffer(let written) = try #require(try channel.readOutbound(as: IOData.self)) else {
            Issue.record("not bytes")
            return
        }
        let entries = frames(Array(written.readableBytesView))[0].payload
        #expect(Array(entries[0..<6]) == [0, 3, 0, 0, 0, 100])
        #expect(entries[8..<12].reduce(0) { $0 << 8 | Int($1) } == HeaderListLimit.decodedBytes)
        _ = try channel.finish()
    }
}

@Suite("TLS without ALPN: the first bytes pick HTTP/2 or HTTP/1.1")
struct HTTPVersionSelectorTests {
    typealias Selector = HTTPVersionSelector<String, String>

    @Test("the preface means HTTP/2; anything that departs from it HTTP/1.1; a proper prefix waits")
    func sniff() {
        #expect(Selector.sniff(preface) == .http2)
        #expect(Selector.sniff(preface + [0, 0]) == .http2)
        #expect(Selector.sniff(Array("POST /3/device/ab HTTP/1.1\r\n".utf8)) == .http1)
        #expect(Selector.sniff(Array("PRI * HTTP/1.1".utf8)) == .http1)
        #expect(Selector.sniff(Array(preface.prefix(10))) == nil)
        #expect(Selector.sniff([UInt8]()) == nil)
    }

    /// Runs a selector on an embedded channel: the handshake event, then `chunks`; returns the version chosen and
    /// the bytes the next handler got.
    func select(alpn: String?, chunks: [[UInt8]]) throws -> (String?, [UInt8]) {
        let channel = EmbeddedChannel()
        let selector = Selector(
            http1: { $0.eventLoop.makeSucceededFuture("http1") }, http2: { $0.eventLoop.makeSucceededFuture("http2") })
        try channel.pipeline.syncOperations.addHandler(selector)
        let chosen = Chosen()
        selector.result.whenSuccess {
            switch $0 {
            case .http1_1(let value): chosen.value = value
            case .http2(let value): chosen.value = value
            }
        }
        channel.pipeline.fireUserInboundEventTriggered(TLSUserEvent.handshakeCompleted(negotiatedProtocol: alpn))
        var passed: [UInt8] = []
        for chunk in chunks {
            try channel.writeInbound(ByteBuffer(bytes: chunk))
            while let buffer = try channel.readInbound(as: ByteBuffer.self) { passed += buffer.readableBytesView }
        }
        _ = try? channel.finish()
        return (chosen.value, passed)
    }

    /// What the selector chose; written and read on the embedded channel's one thread.
    final class Chosen: @unchecked Sendable { var value: String? }

    @Test("no ALPN and the preface in pieces: HTTP/2, and every byte reaches the HTTP/2 handler in order")
    func prefaceWithoutALPN() throws {
        let bytes = preface + [0, 0, 0, 4, 0, 0, 0, 0, 0]
        let (chosen, passed) = try select(
            alpn: nil, chunks: [Array(bytes[0..<5]), Array(bytes[5..<20]), Array(bytes[20...])])
        #expect(chosen == "http2")
        #expect(passed == bytes)
    }

    @Test("no ALPN and an HTTP/1.1 request: HTTP/1.1; ALPN decides without looking at the bytes")
    func otherwise() throws {
        let request = Array("GET / HTTP/1.1\r\nhost: x\r\n\r\n".utf8)
        let (chosen, passed) = try select(alpn: nil, chunks: [request])
        #expect(chosen == "http1" && passed == request)
        #expect(try select(alpn: "h2", chunks: [request]).0 == "http2")
        #expect(try select(alpn: "http/1.1", chunks: [preface]).0 == "http1")
    }
}

@Suite("Responses end on their last frame, not on an empty DATA frame after it")
struct StreamEndFolderTests {
    /// Writes `frames` through a folder as separate writes and one flush; returns the frames that left.
    func fold(_ writes: [[UInt8]]) throws -> [(type: UInt8, flags: UInt8, stream: UInt32, payload: [UInt8])] {
        let channel = EmbeddedChannel(handler: StreamEndFolder())
        for write in writes { channel.write(IOData.byteBuffer(ByteBuffer(bytes: write)), promise: nil) }
        channel.flush()
        var out: [UInt8] = []
        while let data = try channel.readOutbound(as: IOData.self) {
            if case .byteBuffer(let buffer) = data { out += buffer.readableBytesView }
        }
        _ = try channel.finish()
        return frames(out)
    }

    @Test("a 200 without a body is HEADERS with END_STREAM; a body's last DATA frame ends the stream")
    func folds() throws {
        let headers = frame(type: 1, flags: 0x4, stream: 1, payload: [0x88])
        let empty = frame(type: 0, flags: 0x1, stream: 1, payload: [])
        let passed = try fold([headers, empty])
        #expect(passed.map(\.type) == [1] && passed[0].flags == 0x5)

        let reason = Array(#"{"reason":"Unregistered"}"#.utf8)
        let withBody = try fold([
            frame(type: 1, flags: 0x4, stream: 3, payload: [0x88]),
            frame(type: 1, flags: 0x4, stream: 5, payload: [0x88]),
            frame(type: 0, flags: 0x0, stream: 3, payload: reason),
            frame(type: 0, flags: 0x1, stream: 5, payload: []),
            frame(type: 0, flags: 0x1, stream: 3, payload: []),
        ])
        #expect(withBody.map(\.stream) == [3, 5, 3])
        #expect(withBody.map(\.flags) == [0x4, 0x5, 0x1])
        #expect(withBody[2].payload == reason)
    }

    @Test("frames that already end their stream, other streams' frames and control frames pass unchanged")
    func leavesTheRest() throws {
        let settings = frame(type: 4, flags: 0, stream: 0, payload: [0, 3, 0, 0, 0, 100])
        let ended = frame(type: 1, flags: 0x5, stream: 1, payload: [0x88])
        let lone = frame(type: 0, flags: 0x1, stream: 7, payload: [])
        let passed = try fold([settings, ended, lone])
        #expect(passed.map(\.type) == [4, 1, 0])
        #expect(passed.map(\.flags) == [0, 0x5, 0x1])
    }
}

@Suite("Hostile bytes in front of the HTTP/2 handler")
struct HostileHTTP2BytesTests {
    @Test("random frames (headers, continuations, lengths that lie, garbage) never trap either handler")
    func randomFrames() throws {
        var random = SplitMix64(seed: 42)
        for _ in 0..<300 {
            let limiter = EmbeddedChannel(handler: HeaderListLimiter())
            var input = preface
            let frames = Int.random(in: 1...12, using: &random)
            for _ in 0..<frames {
                let type = [UInt8(0), 1, 9, 4, 3, UInt8.random(in: 0...255, using: &random)].randomElement(
                    using: &random)!
                let length = Int.random(in: 0...300, using: &random)
                var payload = (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
                if Bool.random(using: &random) { payload = Array(payload.prefix(length / 2)) }
                input += frame(
                    type: type, flags: UInt8.random(in: 0...255, using: &random),
                    stream: UInt32.random(in: 0...5, using: &random), payload: payload)
            }
            for start in stride(from: 0, to: input.count, by: Int.random(in: 1...64, using: &random)) {
                try limiter.writeInbound(ByteBuffer(bytes: input[start..<min(start + 64, input.count)]))
            }
            var passed = 0
            while let buffer = try limiter.readInbound(as: ByteBuffer.self) { passed += buffer.readableBytes }
            // A block re-encoded without indexing can grow (one byte naming a static-table field becomes the
            // field), never past the header-list limit.
            #expect(passed <= input.count + frames * (HeaderListLimit.bytes + 64), "\(passed) from \(input.count)")
            _ = try limiter.finish()

            let folder = EmbeddedChannel(handler: StreamEndFolder())
            folder.write(IOData.byteBuffer(ByteBuffer(bytes: input.dropFirst(24))), promise: nil)
            folder.flush()
            var written = 0
            while let data = try folder.readOutbound(as: IOData.self) {
                if case .byteBuffer(let buffer) = data { written += buffer.readableBytes }
            }
            #expect(written <= input.count - 24)
            _ = try folder.finish()
        }
    }
}
