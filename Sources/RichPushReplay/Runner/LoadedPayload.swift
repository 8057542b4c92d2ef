import Foundation
import RichPushCore

/// A payload file read from disk with its expectation, or the reason either could not be read.
public struct LoadedPayload: Sendable {
    public var file: PayloadFile
    /// The file's bytes; nil when it could not be read.
    public var bytes: [UInt8]?
    /// The file is larger than any payload APNs would carry; only its size was read.
    public var oversizedBytes: Int?
    public var readError: String?
    public var expectation: Expectation?
    public var expectationError: String?

    public init(
        file: PayloadFile, bytes: [UInt8]?, oversizedBytes: Int? = nil, readError: String? = nil,
        expectation: Expectation? = nil, expectationError: String? = nil
    ) {
        self.file = file
        self.bytes = bytes
        self.oversizedBytes = oversizedBytes
        self.readError = readError
        self.expectation = expectation
        self.expectationError = expectationError
    }

    /// Reads a payload and its expectation. Never throws: problems are kept with the file they concern.
    public static func load(_ file: PayloadFile) -> LoadedPayload {
        var loaded = LoadedPayload(file: file, bytes: nil)
        switch readPrefix(of: file.path, limit: PayloadDecoder.maxFileBytes) {
        case .success(let bytes) where bytes.count > PayloadDecoder.maxFileBytes:
            let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? bytes.count
            loaded.oversizedBytes = size
        case .success(let bytes):
            loaded.bytes = bytes
        case .failure(let message):
            loaded.readError = message
        }
        if let path = file.expectationPath {
            switch readPrefix(of: path, limit: 1024 * 1024) {
            case .success(let bytes):
                do {
                    loaded.expectation = try Expectation.parse(bytes)
                } catch {
                    loaded.expectationError = "\(path): \(error.message)"
                }
            case .failure(let message):
                loaded.expectationError = "\(path): \(message)"
            }
        }
        return loaded
    }

    private enum ReadOutcome {
        case success([UInt8])
        case failure(String)
    }

    /// At most `limit + 1` bytes, so an oversized file is noticed without reading all of it.
    private static func readPrefix(of path: String, limit: Int) -> ReadOutcome {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            let exists = FileManager.default.fileExists(atPath: path)
            return .failure(
                exists ? "cannot read the file (permission denied?)" : "cannot open the file (missing or a broken link)"
            )
        }
        defer { try? handle.close() }
        do {
            let data = try handle.read(upToCount: limit + 1) ?? Data()
            return .success(Array(data))
        } catch {
            return .failure("cannot read the file: \(error.localizedDescription)")
        }
    }

    /// Whether the payload points at the embedded fixture CDN, so replay starts it only when needed.
    public func mentions(host: String) -> Bool {
        guard let bytes else { return false }
        let needle = Array(host.utf8)
        guard bytes.count >= needle.count else { return false }
        for start in 0...(bytes.count - needle.count) where bytes[start] == needle[0] {
            if bytes[start..<start + needle.count].elementsEqual(needle) { return true }
        }
        return false
    }
}
