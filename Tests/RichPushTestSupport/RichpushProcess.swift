import Foundation

/// The repository root, found from this file's place (`Tests/RichPushTestSupport/`).
public let repositoryRootPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().path

/// The `richpush` executable built beside the test bundle, else `.build/debug/richpush`; RICHPUSH_BIN overrides.
public func richpushBinary() -> String {
    if let override = ProcessInfo.processInfo.environment["RICHPUSH_BIN"] { return override }
    // The test runner may be inside an .xctest bundle directory: look upwards from it.
    var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    while directory.path != "/" {
        let candidate = directory.appendingPathComponent("richpush").path
        if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        directory = directory.deletingLastPathComponent()
    }
    return "\(repositoryRootPath)/.build/debug/richpush"
}

/// How a command ended, and what it printed.
public struct CommandRun: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String
    public var seconds: Double

    public var stdoutLines: [String] {
        stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }
}

/// Runs a program with arguments in a working directory, with no terminal attached. Its environment is this
/// process's with `LC_ALL=C.UTF-8` and `environment` added, or, with `inherit` false, `environment` alone (plus
/// PATH and LC_ALL).
public func runExecutable(
    _ executable: String, _ arguments: [String], in directory: String = repositoryRootPath,
    environment extra: [String: String] = [:], inherit: Bool = true
) async throws -> CommandRun {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.currentDirectoryURL = URL(fileURLWithPath: directory)
    var environment =
        inherit
        ? ProcessInfo.processInfo.environment
        : ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]
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
    async let errorRead = readToEnd(err.fileHandleForReading)
    let outData = await readToEnd(out.fileHandleForReading)
    let errData = await errorRead
    await waitForExit(process)
    return CommandRun(
        status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
        stderr: String(decoding: errData, as: UTF8.self), seconds: Date().timeIntervalSince(start))
}

/// Everything `handle` gives until its end, read on a thread of its own: a blocking read on Swift's cooperative
/// threads (one per core) would stall every other test's tasks while a child process runs.
public func readToEnd(_ handle: FileHandle) async -> Data {
    await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: handle.readDataToEndOfFile()) }.start()
    }
}

/// Waits for `process` to exit on a thread of its own (`Process.waitUntilExit` blocks its caller, which must not be
/// one of Swift's cooperative threads; see ``readToEnd(_:)``).
public func waitForExit(_ process: Process) async {
    await withCheckedContinuation { continuation in
        Thread {
            process.waitUntilExit()
            continuation.resume()
        }.start()
    }
}
