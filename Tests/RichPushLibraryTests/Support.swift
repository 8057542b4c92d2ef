import Foundation

/// A temporary folder removed when the value goes away.
final class TemporaryFolder {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("richpush-lib-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        // Make locked test folders removable again.
        chmod(path, 0o755)
        if let files = FileManager.default.enumerator(atPath: path) {
            for case let file as String in files { chmod("\(path)/\(file)", 0o755) }
        }
        try? FileManager.default.removeItem(atPath: path)
    }

    @discardableResult
    func write(_ relative: String, _ contents: String) throws -> String {
        let full = "\(path)/\(relative)"
        try FileManager.default.createDirectory(
            atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try contents.write(toFile: full, atomically: true, encoding: .utf8)
        return full
    }

    @discardableResult
    func fifo(_ relative: String) throws -> String {
        let full = "\(path)/\(relative)"
        guard mkfifo(full, 0o644) == 0 else { throw CocoaError(.fileWriteUnknown) }
        return full
    }
}

/// Whether this process can read a folder whose permissions are 000: root can, so tests that lock a folder
/// run the check through `runuser -u nobody` or are skipped.
var runsAsRoot: Bool { getuid() == 0 }
