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
public struct CommandRun: Sendable, CustomStringConvertible {
    /// The exit status, or the signal's number when ``endedBySignal``.
    public var status: Int32
    /// Whether a signal ended the program (``status`` is then the signal's number).
    public var endedBySignal = false
    /// Standard output (standard error too with `mergingErrors`; empty when it went to a file handle).
    public var stdout: String
    public var stderr: String
    public var seconds: Double

    public var stdoutLines: [String] {
        stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    public init(status: Int32, endedBySignal: Bool = false, stdout: String, stderr: String, seconds: Double) {
        self.status = status
        self.endedBySignal = endedBySignal
        self.stdout = stdout
        self.stderr = stderr
        self.seconds = seconds
    }

    public var description: String { "\(endedBySignal ? "signal" : "exit") \(status), stderr: \(stderr)" }
}

/// The one way the tests run a program to its end: in a working directory, with no terminal attached. Its
/// environment is this process's with `LC_ALL=C.UTF-8` and `environment` added, or, with `inherit` false,
/// `environment` alone (plus PATH and LC_ALL). Standard output is captured, or goes to `standardOutput` (a file such
/// as `/dev/full`); standard error is captured, or merged into standard output with `mergingErrors`.
///
/// Both pipes are read while the child runs, so neither can fill up and block it, and on threads of their own: a
/// blocking read on Swift's cooperative threads (one per core) would stall every other test's tasks meanwhile.
public func runExecutable(
    _ executable: String, _ arguments: [String], in directory: String = repositoryRootPath,
    environment extra: [String: String] = [:], inherit: Bool = true, standardOutput: FileHandle? = nil,
    mergingErrors: Bool = false
) async throws -> CommandRun {
    try await withCheckedThrowingContinuation { continuation in
        Thread {
            continuation.resume(
                with: Result {
                    try runExecutableBlocking(
                        executable, arguments, in: directory, environment: extra, inherit: inherit,
                        standardOutput: standardOutput, mergingErrors: mergingErrors)
                })
        }.start()
    }
}

/// ``runExecutable(_:_:in:environment:inherit:standardOutput:mergingErrors:)`` on the calling thread, for the few
/// places that cannot wait asynchronously (a test trait's condition). Never call it from a task.
public func runExecutableBlocking(
    _ executable: String, _ arguments: [String], in directory: String = repositoryRootPath,
    environment extra: [String: String] = [:], inherit: Bool = true, standardOutput: FileHandle? = nil,
    mergingErrors: Bool = false
) throws -> CommandRun {
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
    process.standardOutput = standardOutput ?? out
    process.standardError = mergingErrors ? (standardOutput ?? out) : err
    process.standardInput = FileHandle.nullDevice
    let start = Date()
    try process.run()
    // Standard error on a thread of its own while this one reads standard output.
    final class Collected: @unchecked Sendable {
        var data = Data()  // written before `done` is signalled, read after it is waited for
        let done = DispatchSemaphore(value: 0)
    }
    let errors = Collected()
    Thread {
        if !mergingErrors { errors.data = err.fileHandleForReading.readDataToEndOfFile() }
        errors.done.signal()
    }.start()
    let outData = standardOutput == nil ? out.fileHandleForReading.readDataToEndOfFile() : Data()
    errors.done.wait()
    process.waitUntilExit()
    return CommandRun(
        status: process.terminationStatus, endedBySignal: process.terminationReason == .uncaughtSignal,
        stdout: String(decoding: outData, as: UTF8.self),
        stderr: String(decoding: errors.data, as: UTF8.self), seconds: Date().timeIntervalSince(start))
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

/// Waits until process `pid` catches `signal` (its handler is installed: the signal's bit in `SigCgt` of
/// /proc/PID/status), so a test sends the signal to a program ready for it rather than after a guessed delay. False
/// when the process ended or `timeout` passed first. `/proc` is read again after each `interval`.
public func waitUntilCatching(
    _ signal: Int32, pid: Int32, timeout: Duration = .seconds(30), interval: Duration = .milliseconds(10)
) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return false }
        if let line = status.split(separator: "\n").first(where: { $0.hasPrefix("SigCgt:") }),
            let mask = UInt64(line.dropFirst("SigCgt:".count).trimmingCharacters(in: .whitespaces), radix: 16),
            mask & (1 << UInt64(signal - 1)) != 0
        {
            return true
        }
        try? await Task.sleep(for: interval)
    }
    return false
}
