import Compression
import Foundation
import Testing

/// Apple's Compression as extensions call it: the buffer functions (the Data helper apps write around them) and the
/// stream functions, against the system's zlib and liblzma; LZFSE and LZ4 fail when called, never crash.
@Suite("Compression: COMPRESSION_ZLIB is raw DEFLATE over zlib, LZMA is xz, LZFSE and LZ4 fail at run time")
struct CompressionTests {
    let text = Data(String(repeating: "Your order shipped. ", count: 50).utf8)

    /// The helper extensions write around compression_encode_buffer.
    func encode(_ data: Data, _ algorithm: compression_algorithm, capacity: Int? = nil) -> Data? {
        let capacity = capacity ?? data.count + 1024
        var output = Data(count: capacity)
        let written = output.withUnsafeMutableBytes { out in
            data.withUnsafeBytes { input in
                compression_encode_buffer(
                    out.bindMemory(to: UInt8.self).baseAddress!, capacity,
                    input.bindMemory(to: UInt8.self).baseAddress!, data.count, nil, algorithm)
            }
        }
        return written == 0 ? nil : output.prefix(written)
    }

    func decode(_ data: Data, _ algorithm: compression_algorithm, capacity: Int = 1 << 20) -> Data? {
        var output = Data(count: capacity)
        let written = output.withUnsafeMutableBytes { out in
            data.withUnsafeBytes { input in
                compression_decode_buffer(
                    out.bindMemory(to: UInt8.self).baseAddress!, capacity,
                    input.bindMemory(to: UInt8.self).baseAddress!, data.count, nil, algorithm)
            }
        }
        return written == 0 ? nil : output.prefix(written)
    }

    @Test("zlib: a round trip, raw DEFLATE without zlib's header, and Python's raw deflate reads as Apple's does")
    func zlib() throws {
        let packed = try #require(encode(text, COMPRESSION_ZLIB))
        #expect(packed.count < text.count / 10)
        // No zlib header (0x78 ...): RFC 1951's raw stream, as Apple documents COMPRESSION_ZLIB.
        #expect(packed.first != 0x78)
        #expect(decode(packed, COMPRESSION_ZLIB) == text)
        // zlib.compressobj(wbits=-15).compress(b"hello hello hello") + flush(): a server's raw deflate.
        let server = Data([0xcb, 0x48, 0xcd, 0xc9, 0xc9, 0x57, 0xc8, 0x40, 0x90, 0x00])
        #expect(decode(server, COMPRESSION_ZLIB).map { String(decoding: $0, as: UTF8.self) } == "hello hello hello")
        // zlib's wrapper is not what COMPRESSION_ZLIB reads: 0 bytes.
        #expect(decode(Data([0x78, 0x9c]) + server, COMPRESSION_ZLIB) == nil)
    }

    @Test("the buffer functions: 0 when the output does not fit (encoding), the buffer's size when decoding")
    func smallBuffers() throws {
        #expect(encode(text, COMPRESSION_ZLIB, capacity: 4) == nil)
        let packed = try #require(encode(text, COMPRESSION_ZLIB))
        #expect(decode(packed, COMPRESSION_ZLIB, capacity: 10) == text.prefix(10))
        #expect(decode(Data("not deflate at all, just text".utf8), COMPRESSION_ZLIB) == nil)
        #expect(compression_encode_scratch_buffer_size(COMPRESSION_ZLIB) > 0)
    }

    @Test("LZMA: the xz container, round trip")
    func lzma() throws {
        let packed = try #require(encode(text, COMPRESSION_LZMA))
        #expect(packed.prefix(6) == Data([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]))
        #expect(decode(packed, COMPRESSION_LZMA) == text)
    }

    @Test("LZFSE and LZ4 build and fail when called: 0 bytes, COMPRESSION_STATUS_ERROR")
    func unavailable() {
        for algorithm in [COMPRESSION_LZFSE, COMPRESSION_LZ4] {
            #expect(encode(text, algorithm) == nil)
            #expect(decode(text, algorithm) == nil)
            let stream = UnsafeMutablePointer<compression_stream>.allocate(capacity: 1)
            defer { stream.deallocate() }
            #expect(compression_stream_init(stream, COMPRESSION_STREAM_ENCODE, algorithm) == COMPRESSION_STATUS_ERROR)
        }
    }

    /// The stream loop extensions write (Apple's "compression_stream" overview), in small buffers.
    func stream(_ input: Data, _ operation: compression_stream_operation, _ algorithm: compression_algorithm) -> Data? {
        let bufferSize = 64
        let destination = UnsafeMutablePointer<UInt8>.allocate(capacity: bufferSize)
        defer { destination.deallocate() }
        let stream = UnsafeMutablePointer<compression_stream>.allocate(capacity: 1)
        defer { stream.deallocate() }
        guard compression_stream_init(stream, operation, algorithm) == COMPRESSION_STATUS_OK else { return nil }
        defer { _ = compression_stream_destroy(stream) }
        var output = Data()
        return input.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> Data? in
            stream.pointee.src_ptr = bytes.bindMemory(to: UInt8.self).baseAddress!
            stream.pointee.src_size = input.count
            stream.pointee.dst_ptr = destination
            stream.pointee.dst_size = bufferSize
            while true {
                let status = compression_stream_process(stream, Int32(COMPRESSION_STREAM_FINALIZE.rawValue))
                switch status {
                case COMPRESSION_STATUS_OK, COMPRESSION_STATUS_END:
                    output.append(destination, count: bufferSize - stream.pointee.dst_size)
                    stream.pointee.dst_ptr = destination
                    stream.pointee.dst_size = bufferSize
                    if status == COMPRESSION_STATUS_END { return output }
                default:
                    return nil
                }
            }
        }
    }

    @Test("the stream functions: encode and decode in 64-byte buffers, for zlib and LZMA")
    func streams() throws {
        for algorithm in [COMPRESSION_ZLIB, COMPRESSION_LZMA] {
            let packed = try #require(stream(text, COMPRESSION_STREAM_ENCODE, algorithm))
            #expect(decode(packed, algorithm) == text)
            #expect(stream(packed, COMPRESSION_STREAM_DECODE, algorithm) == text)
        }
    }
}
