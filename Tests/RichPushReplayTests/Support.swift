import Foundation

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

/// The repository root, found from this file's place.
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().path

/// What a run of the real `richpush` binary printed and how it exited.
struct CommandRun {
    var status: Int32
    var stdout: String
    var stderr: String
    var seconds: Double

    var stdoutLines: [String] { stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }
}

/// The `richpush` executable built beside the test bundle (or RICHPUSH_BIN).
func richpushBinary() -> String {
    if let override = ProcessInfo.processInfo.environment["RICHPUSH_BIN"] { return override }
    let testBinary = URL(fileURLWithPath: CommandLine.arguments[0])
    var directory = testBinary.deletingLastPathComponent()
    // The test runner may be inside an .xctest bundle directory.
    while directory.path != "/" {
        let candidate = directory.appendingPathComponent("richpush").path
        if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        directory = directory.deletingLastPathComponent()
    }
    return "\(repositoryRoot)/.build/debug/richpush"
}

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

/// Runs a program with arguments in a working directory, with no terminal attached; `environment` is added to
/// this process's.
func runExecutable(
    _ executable: String, _ arguments: [String], in directory: String = repositoryRoot,
    environment extra: [String: String] = [:]
) async throws -> CommandRun {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.currentDirectoryURL = URL(fileURLWithPath: directory)
    var environment = ProcessInfo.processInfo.environment
    environment["LC_ALL"] = "C.UTF-8"
    environment.merge(extra) { $1 }
    process.environment = environment
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = FileHandle.nullDevice
    let start = Date()
    try process.run()
    // Read both pipes while the child runs so neither can fill up and block it.
    let errorReader = Task.detached { err.fileHandleForReading.readDataToEndOfFile() }
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    let errData = await errorReader.value
    process.waitUntilExit()
    return CommandRun(
        status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
        stderr: String(decoding: errData, as: UTF8.self), seconds: Date().timeIntervalSince(start))
}
