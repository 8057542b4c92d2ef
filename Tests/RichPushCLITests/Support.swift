import Foundation
import RichPushTestSupport

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
