import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A temporary folder, removed with everything in it when the value goes away (locked files and folders inside
/// are made removable first). Keep the value alive for as long as the folder is used.
public final class TemporaryFolder: Sendable {
    public let path: String
    public var url: URL { URL(fileURLWithPath: path, isDirectory: true) }

    public init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("richpush-test-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        chmod(path, 0o755)
        if let files = FileManager.default.enumerator(atPath: path) {
            for case let file as String in files { chmod("\(path)/\(file)", 0o755) }
        }
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Writes `contents` at `relative` (folders on the way are made); returns the file's path.
    @discardableResult
    public func write(_ relative: String, _ contents: String) throws -> String {
        let full = "\(path)/\(relative)"
        try FileManager.default.createDirectory(
            atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try contents.write(toFile: full, atomically: true, encoding: .utf8)
        return full
    }

    /// Makes a FIFO at `relative`; returns its path.
    @discardableResult
    public func fifo(_ relative: String) throws -> String {
        let full = "\(path)/\(relative)"
        guard mkfifo(full, 0o644) == 0 else { throw CocoaError(.fileWriteUnknown) }
        return full
    }
}
