/// Apple's Compression framework as a team's extension calls it from Swift: the buffer functions, the stream
/// functions and their C types, as Swift imports them from `compression.h`
/// (https://developer.apple.com/documentation/compression).
///
/// `COMPRESSION_ZLIB` is the system's zlib (raw DEFLATE, RFC 1951, no header, at level 5 as Apple documents it), and
/// `COMPRESSION_LZMA` the system's liblzma (the xz container, preset 6). `COMPRESSION_LZFSE` and `COMPRESSION_LZ4`
/// build but fail when called (a buffer function returns 0, `compression_stream_init(_:_:_:)` returns
/// `COMPRESSION_STATUS_ERROR`): LZFSE has no Debian package, and LZ4 is Apple's own block framing of it, which no
/// library here writes.
///
/// The module does not import its C implementation (a team's extension is compiled against the Swift modules alone):
/// CCompression hands over its functions as C function pointers (`rp_compression_functions`).

/// An algorithm, as Swift imports the C enumeration `compression_algorithm`.
/// https://developer.apple.com/documentation/compression/compression_algorithm
public struct compression_algorithm: RawRepresentable, Equatable, Hashable, Sendable {
    public var rawValue: UInt32
    public init(_ rawValue: UInt32) { self.rawValue = rawValue }
    public init(rawValue: UInt32) { self.rawValue = rawValue }
}

/// https://developer.apple.com/documentation/compression/compression_lz4
public let COMPRESSION_LZ4 = compression_algorithm(0x100)
/// https://developer.apple.com/documentation/compression/compression_lz4_raw
public let COMPRESSION_LZ4_RAW = compression_algorithm(0x101)
/// Raw DEFLATE (RFC 1951), zlib's level 5: https://developer.apple.com/documentation/compression/compression_zlib
public let COMPRESSION_ZLIB = compression_algorithm(0x205)
/// LZMA at level 6, Apple's only level (https://developer.apple.com/documentation/compression/algorithm/lzma), in
/// the xz container: https://developer.apple.com/documentation/compression/compression_lzma
public let COMPRESSION_LZMA = compression_algorithm(0x306)
/// https://developer.apple.com/documentation/compression/compression_lzfse
public let COMPRESSION_LZFSE = compression_algorithm(0x801)
/// https://developer.apple.com/documentation/compression/compression_brotli (iOS 15)
public let COMPRESSION_BROTLI = compression_algorithm(0xB02)

/// https://developer.apple.com/documentation/compression/compression_stream_operation
public struct compression_stream_operation: RawRepresentable, Equatable, Hashable, Sendable {
    public var rawValue: UInt32
    public init(_ rawValue: UInt32) { self.rawValue = rawValue }
    public init(rawValue: UInt32) { self.rawValue = rawValue }
}

/// https://developer.apple.com/documentation/compression/compression_stream_encode
public let COMPRESSION_STREAM_ENCODE = compression_stream_operation(0)
/// https://developer.apple.com/documentation/compression/compression_stream_decode
public let COMPRESSION_STREAM_DECODE = compression_stream_operation(1)

/// https://developer.apple.com/documentation/compression/compression_stream_flags
public struct compression_stream_flags: RawRepresentable, Equatable, Hashable, Sendable {
    public var rawValue: UInt32
    public init(_ rawValue: UInt32) { self.rawValue = rawValue }
    public init(rawValue: UInt32) { self.rawValue = rawValue }
}

/// Passed to ``compression_stream_process(_:_:)`` as `Int32(COMPRESSION_STREAM_FINALIZE.rawValue)`.
/// https://developer.apple.com/documentation/compression/compression_stream_finalize
public let COMPRESSION_STREAM_FINALIZE = compression_stream_flags(1)

/// https://developer.apple.com/documentation/compression/compression_status
public struct compression_status: RawRepresentable, Equatable, Hashable, Sendable {
    public var rawValue: Int32
    public init(_ rawValue: Int32) { self.rawValue = rawValue }
    public init(rawValue: Int32) { self.rawValue = rawValue }
}

/// https://developer.apple.com/documentation/compression/compression_status_ok
public let COMPRESSION_STATUS_OK = compression_status(0)
/// https://developer.apple.com/documentation/compression/compression_status_error
public let COMPRESSION_STATUS_ERROR = compression_status(-1)
/// https://developer.apple.com/documentation/compression/compression_status_end
public let COMPRESSION_STATUS_END = compression_status(1)

/// A stream: where the next input is and the next output goes, and the algorithm's state.
/// https://developer.apple.com/documentation/compression/compression_stream and its
/// `init(dst_ptr:dst_size:src_ptr:src_size:state:)`. Laid out as the C structure CCompression reads.
public struct compression_stream {
    public var dst_ptr: UnsafeMutablePointer<UInt8>
    public var dst_size: Int
    public var src_ptr: UnsafePointer<UInt8>
    public var src_size: Int
    public var state: UnsafeMutableRawPointer?

    public init(
        dst_ptr: UnsafeMutablePointer<UInt8>, dst_size: Int, src_ptr: UnsafePointer<UInt8>, src_size: Int,
        state: UnsafeMutableRawPointer?
    ) {
        self.dst_ptr = dst_ptr
        self.dst_size = dst_size
        self.src_ptr = src_ptr
        self.src_size = src_size
        self.state = state
    }
}

/// Compresses `src_buffer` into `dst_buffer`: the bytes written, 0 when they do not fit or the algorithm is not
/// available. The scratch buffer is not needed here and is ignored.
/// https://developer.apple.com/documentation/compression/compression_encode_buffer(_:_:_:_:_:_:)
public func compression_encode_buffer(
    _ dst_buffer: UnsafeMutablePointer<UInt8>, _ dst_size: Int, _ src_buffer: UnsafePointer<UInt8>, _ src_size: Int,
    _ scratch_buffer: UnsafeMutableRawPointer?, _ algorithm: compression_algorithm
) -> Int {
    CCompressionFunctions.encodeBuffer(dst_buffer, dst_size, src_buffer, src_size, algorithm.rawValue)
}

/// Decompresses `src_buffer` into `dst_buffer`: the bytes written (`dst_size` when the output fills it), 0 on an
/// error or for an algorithm that is not available.
/// https://developer.apple.com/documentation/compression/compression_decode_buffer(_:_:_:_:_:_:)
public func compression_decode_buffer(
    _ dst_buffer: UnsafeMutablePointer<UInt8>, _ dst_size: Int, _ src_buffer: UnsafePointer<UInt8>, _ src_size: Int,
    _ scratch_buffer: UnsafeMutableRawPointer?, _ algorithm: compression_algorithm
) -> Int {
    CCompressionFunctions.decodeBuffer(dst_buffer, dst_size, src_buffer, src_size, algorithm.rawValue)
}

/// The scratch buffer's size an extension may allocate and pass (it is not used here).
/// https://developer.apple.com/documentation/compression/compression_encode_scratch_buffer_size(_:)
public func compression_encode_scratch_buffer_size(_ algorithm: compression_algorithm) -> Int { scratchSize }

/// https://developer.apple.com/documentation/compression/compression_decode_scratch_buffer_size(_:)
public func compression_decode_scratch_buffer_size(_ algorithm: compression_algorithm) -> Int { scratchSize }

private let scratchSize = 64 * 1024

/// https://developer.apple.com/documentation/compression/compression_stream_init(_:_:_:)
public func compression_stream_init(
    _ stream: UnsafeMutablePointer<compression_stream>, _ operation: compression_stream_operation,
    _ algorithm: compression_algorithm
) -> compression_status {
    compression_status(
        CCompressionFunctions.streamInit(UnsafeMutableRawPointer(stream), operation.rawValue, algorithm.rawValue))
}

/// `flags` is `Int32(COMPRESSION_STREAM_FINALIZE.rawValue)` once no more input comes, else 0.
/// https://developer.apple.com/documentation/compression/compression_stream_process(_:_:)
public func compression_stream_process(
    _ stream: UnsafeMutablePointer<compression_stream>, _ flags: Int32
) -> compression_status {
    compression_status(CCompressionFunctions.streamProcess(UnsafeMutableRawPointer(stream), flags))
}

/// https://developer.apple.com/documentation/compression/compression_stream_destroy(_:)
public func compression_stream_destroy(_ stream: UnsafeMutablePointer<compression_stream>) -> compression_status {
    compression_status(CCompressionFunctions.streamDestroy(UnsafeMutableRawPointer(stream)))
}

/// CCompression's functions, as the C types they have (its header lists them in this order).
enum CCompressionFunctions {
    typealias Buffer =
        @convention(c) (UnsafeMutablePointer<UInt8>, Int, UnsafePointer<UInt8>, Int, UInt32) -> Int
    typealias StreamInit = @convention(c) (UnsafeMutableRawPointer, UInt32, UInt32) -> Int32
    typealias StreamProcess = @convention(c) (UnsafeMutableRawPointer, Int32) -> Int32
    typealias StreamDestroy = @convention(c) (UnsafeMutableRawPointer) -> Int32

    static var encodeBuffer: Buffer { function(0) }
    static var decodeBuffer: Buffer { function(1) }
    static var streamInit: StreamInit { function(2) }
    static var streamProcess: StreamProcess { function(3) }
    static var streamDestroy: StreamDestroy { function(4) }

    private static func function<Function>(_ index: Int) -> Function {
        unsafeBitCast(rpCompressionFunctions()[index], to: Function.self)
    }
}

/// `const void *const *rp_compression_functions(void)`: no arguments and a pointer back, which Swift's calling
/// convention passes as C's does, so `@_silgen_name` reaches the C function without importing its module.
@_silgen_name("rp_compression_functions")
private func rpCompressionFunctions() -> UnsafePointer<UnsafeRawPointer>
