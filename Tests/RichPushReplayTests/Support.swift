import Foundation
import RichPushTestSupport

/// A temporary folder removed when the value goes away.
final class TemporaryFolder {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("richpush-test-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        // Make unreadable test files removable again.
        if let files = FileManager.default.enumerator(atPath: path) {
            for case let file as String in files {
                chmod("\(path)/\(file)", 0o755)
            }
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
}

let repositoryRoot = repositoryRootPath

/// Runs `richpush` with arguments in a working directory, with no terminal attached.
func runRichpush(
    _ arguments: [String], in directory: String = repositoryRoot, environment: [String: String] = [:]
) async throws -> CommandRun {
    try await runExecutable(richpushBinary(), arguments, in: directory, environment: environment)
}

/// `richpush` run by the unprivileged user `nobody` (through runuser), for checks root would pass anyway.
/// Nil when this process is not root or runuser is missing.
func runRichpushAsNobody(_ arguments: [String], in directory: String = repositoryRoot) async throws -> CommandRun? {
    guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/sbin/runuser") else { return nil }
    return try await runExecutable(
        "/usr/sbin/runuser", ["-u", "nobody", "--", richpushBinary()] + arguments, in: directory)
}
