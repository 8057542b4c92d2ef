import Foundation
import RichPushTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Everything a team's extension starts ends with it, and with richpush, however richpush ends; the memory limit
/// counts from before the principal class exists.
@Suite("An extension's processes and memory are the system's to end")
struct ExtensionLifetimeTests {
    /// An extension that starts `setsid sleep SECONDS` (a process in a session of its own, as `Process` can start)
    /// and then never returns from `didReceive`, ignoring SIGTERM.
    static let escaping = """
        import Foundation
        import UserNotifications
        class NotificationService: UNNotificationServiceExtension {
            override func didReceive(_ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void) {
                let seconds = request.content.userInfo["sleep"] as? String ?? "300"
                let process = Process()
                process.executableURL = URL(fileURLWithPath: "/usr/bin/setsid")
                process.arguments = ["/bin/sleep", seconds]
                try? process.run()
                signal(SIGTERM, SIG_IGN)
                print("started sleep \\(seconds)")
                while true { sleep(1) }
            }
        }
        """

    /// The processes whose command line contains `text`, but for this test's own.
    static func processes(matching text: String) -> [Int32] {
        let own = getpid()
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { Int32($0) }.filter { pid in
            guard pid != own, let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else {
                return false
            }
            let line = String(decoding: data.map { $0 == 0 ? 0x20 : $0 }, as: UTF8.self)
            return line.contains(text)
        }
    }

    func payloads(in folder: TemporaryFolder, sleep: String, given: String = "") throws {
        _ = try folder.write("ext/NotificationService.swift", Self.escaping)
        _ = try folder.write(
            "payloads/push.json", #"{"aps":{"alert":{"title":"T","body":"B"},"mutable-content":1},"sleep":"\#(sleep)"}"#
        )
        _ = try folder.write(
            "payloads/push.expect.json", #"{"given":{"appState":"background"\#(given)},"expect":{"delivered":true}}"#)
    }

    /// Replays `folder`'s payloads through its extension; the one result.
    func replayOne(_ folder: TemporaryFolder) async throws -> [String: Any] {
        let run = try await runExecutable(
            richpushBinary(),
            ["replay", folder.path + "/payloads", "--extension", folder.path + "/ext", "--format", "json"],
            environment: ["XDG_CACHE_HOME": ExtensionProcessTests.cache])
        let results = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
        return try #require(results.first, "\(run.stderr)")
    }

    @Test("a replay killed with SIGKILL leaves no extension process behind, nor what the extension started (10 runs)")
    func killedReplayLeavesNothing() async throws {
        let folder = try TemporaryFolder()
        let cache = try TemporaryFolder()
        // Built first, however long the compiler takes beside the rest of the suite: the deadline below is for the
        // extension to start, not for it to build.
        try payloads(in: folder, sleep: "1")
        let build = try await runExecutable(
            richpushBinary(), ["extension", "check", folder.path + "/ext"], environment: ["XDG_CACHE_HOME": cache.path])
        try #require(build.status == 0, "\(build.stderr)")
        for run in 0..<10 {
            let marker = "30\(run)\(Int.random(in: 100_000...999_999))"
            try payloads(in: folder, sleep: marker)
            let replay = Process()
            replay.executableURL = URL(fileURLWithPath: richpushBinary())
            replay.arguments = ["replay", folder.path + "/payloads", "--extension", folder.path + "/ext"]
            var environment = ProcessInfo.processInfo.environment
            environment["XDG_CACHE_HOME"] = cache.path
            replay.environment = environment
            replay.standardOutput = FileHandle.nullDevice
            replay.standardError = FileHandle.nullDevice
            try replay.run()
            // The extension runs once the process it started does. (A process's command line reads empty while it
            // execs: what was seen once counts.)
            let deadline = ContinuousClock.now + .seconds(120)
            var started = false
            while !started, ContinuousClock.now < deadline {
                started = !Self.processes(matching: "sleep \(marker)").isEmpty
                if !started { try await Task.sleep(for: .milliseconds(20)) }
            }
            try #require(started, "run \(run): the extension never ran")
            #expect(!Self.processes(matching: cache.path).isEmpty, "run \(run): no extension process found")
            kill(replay.processIdentifier, SIGKILL)
            await waitForExit(replay)
            // The kernel ends them: give it a moment, not the budget.
            let gone = ContinuousClock.now + .seconds(5)
            while ContinuousClock.now < gone,
                !Self.processes(matching: "sleep \(marker)").isEmpty || !Self.processes(matching: cache.path).isEmpty
            {
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(Self.processes(matching: "sleep \(marker)").isEmpty, "run \(run): the extension's child survived")
            #expect(Self.processes(matching: cache.path).isEmpty, "run \(run): the extension survived richpush")
        }
    }

    @Test("the budget holds whatever the extension started: it ends at budget plus grace, not when its child does")
    func budgetHoldsOverAnEscapedChild() async throws {
        let folder = try TemporaryFolder()
        let marker = "299.\(Int.random(in: 100_000...999_999))"
        try payloads(in: folder, sleep: marker, given: #", "extensionBudget": "2s""#)
        let result = try await replayOne(folder)
        let timeline = result["timeline"] as? [[String: Any]] ?? []
        let ended = try #require(timeline.first { $0["event"] as? String == "extensionEnded" }?["at"] as? Double)
        #expect(ended < 8, "the extension ended at \(ended) s, for a budget of 2 s and a grace of 1 s")
        #expect((result["fallback"] as? [String: Any])?["reason"] as? String == "contentHandlerNeverCalled")
        #expect(Self.processes(matching: "sleep \(marker)").isEmpty, "the extension's child outlived it")
    }

    @Test("memory taken when the principal class is made counts against the limit")
    func memoryInInit() async throws {
        let folder = try TemporaryFolder()
        _ = try folder.write(
            "ext/NotificationService.swift",
            """
            import UserNotifications
            class NotificationService: UNNotificationServiceExtension {
                var kept: [UInt8]
                override init() {
                    kept = [UInt8](repeating: 7, count: 30_000_000)
                    super.init()
                }
                override func didReceive(_ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void) {
                    DispatchQueue.main.asyncAfter(deadline: .now() + 2) { contentHandler(request.content) }
                }
            }
            """)
        _ = try folder.write("payloads/push.json", #"{"aps":{"alert":"hello","mutable-content":1}}"#)
        let result = try await replayOne(folder)
        let fallback = result["fallback"] as? [String: Any]
        #expect(fallback?["reason"] as? String == "extensionMemoryLimit", "\(result["timeline"] ?? "")")
        #expect(result["contentHandlerCalls"] as? Int == 0)
    }
}
