public import Foundation

/// Random access to the bytes of a possibly large file, without loading it whole.
///
/// ``ImageInspector`` reads headers and walks chunk/marker/block structures through this protocol, so a
/// 10 MB image never needs to be in memory at once.
public protocol ImageByteSource {
    /// Total number of bytes.
    var count: Int { get }
    /// Up to `length` bytes starting at `offset`; fewer (possibly none) at the end of the data.
    func read(at offset: Int, length: Int) throws -> [UInt8]
}

/// Bytes already in memory.
public struct InMemoryByteSource: ImageByteSource, Sendable {
    public let bytes: [UInt8]

    public init(_ bytes: some Sequence<UInt8>) {
        self.bytes = Array(bytes)
    }

    public var count: Int { bytes.count }

    public func read(at offset: Int, length: Int) throws -> [UInt8] {
        guard offset >= 0, length > 0, offset < bytes.count else { return [] }
        return Array(bytes[offset..<min(bytes.count, offset + min(length, bytes.count - offset))])
    }
}

/// A file read through a `FileHandle`, one bounded chunk at a time.
///
/// Not thread-safe: make one per inspection. The handle is closed on deinit.
public final class FileByteSource: ImageByteSource {
    public let count: Int
    private let handle: FileHandle
    /// The largest single read this source makes; reads are clamped to it.
    public static let maxReadLength = 64 * 1024

    public init(url: URL) throws {
        handle = try FileHandle(forReadingFrom: url)
        count = Int(try handle.seekToEnd())
    }

    deinit {
        try? handle.close()
    }

    public func read(at offset: Int, length: Int) throws -> [UInt8] {
        guard offset >= 0, length > 0, offset < count else { return [] }
        try handle.seek(toOffset: UInt64(offset))
        let wanted = min(length, count - offset, Self.maxReadLength)
        return [UInt8](try handle.read(upToCount: wanted) ?? Data())
    }
}

/// A windowed, cached reader over an ``ImageByteSource`` for sequential structure walks.
struct ByteReader {
    private let source: any ImageByteSource
    private var window: [UInt8] = []
    private var windowStart = 0
    private let windowSize: Int

    init(_ source: any ImageByteSource, windowSize: Int = 64 * 1024) {
        self.source = source
        self.windowSize = windowSize
    }

    var count: Int { source.count }

    /// The byte at `offset`, or nil past the end.
    mutating func byte(at offset: Int) throws -> UInt8? {
        guard offset >= 0, offset < source.count else { return nil }
        if offset < windowStart || offset >= windowStart + window.count {
            window = try source.read(at: offset, length: windowSize)
            windowStart = offset
            if window.isEmpty { return nil }
        }
        return window[offset - windowStart]
    }

    /// Exactly `length` bytes at `offset`, or nil when the data ends first.
    mutating func bytes(at offset: Int, count length: Int) throws -> [UInt8]? {
        guard length >= 0, offset >= 0, offset + length <= source.count else { return nil }
        if length == 0 { return [] }
        if length > windowSize {
            var result: [UInt8] = []
            result.reserveCapacity(length)
            var position = offset
            while position < offset + length {
                let chunk = try source.read(
                    at: position, length: min(windowSize, offset + length - position))
                if chunk.isEmpty { return nil }
                result += chunk
                position += chunk.count
            }
            return result
        }
        if offset < windowStart || offset + length > windowStart + window.count {
            window = try source.read(at: offset, length: windowSize)
            windowStart = offset
        }
        guard offset + length <= windowStart + window.count else { return nil }
        return Array(window[(offset - windowStart)..<(offset - windowStart + length)])
    }

    /// Up to `length` bytes at `offset` (fewer at the end).
    mutating func prefix(at offset: Int, upTo length: Int) throws -> [UInt8] {
        let available = max(0, min(length, source.count - offset))
        return try bytes(at: offset, count: available) ?? []
    }

    mutating func uint16BE(at offset: Int) throws -> Int? {
        guard let b = try bytes(at: offset, count: 2) else { return nil }
        return Int(b[0]) << 8 | Int(b[1])
    }

    mutating func uint32BE(at offset: Int) throws -> Int? {
        guard let b = try bytes(at: offset, count: 4) else { return nil }
        return Int(b[0]) << 24 | Int(b[1]) << 16 | Int(b[2]) << 8 | Int(b[3])
    }
}
