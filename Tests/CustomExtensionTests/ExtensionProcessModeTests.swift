import Foundation
import RichPushTestSupport
import Testing

/// `--extension-process`: one process of a team's extension for many notifications, as iOS runs one, through the
/// real binary, the real compiler and the embedded fixture CDN. What a user sees: the process each result names, the
/// system's rules applied to the process (a crash, the memory limit, the budget), and cross-talk found.
@Suite("One extension process for many notifications", .serialized)
struct ExtensionProcessModeTests {
    static let cache = ExtensionProcessTests.cache

    /// An extension that delivers after `delay` seconds: the payload's own `delay` when it has one, and crashes
    /// (`crash`), allocates (`megabytes`) or blocks its main thread (`block`) as the payload says.
    static let behaving = """
        import UserNotifications
        class NotificationService: UNNotificationServiceExtension {
            static var kept: [[UInt8]] = []
            override func didReceive(_ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void) {
                let info = request.content.userInfo
                let delay = info["delay"] as? Double ?? 0
                if let megabytes = info["megabytes"] as? Int {
                    var block = [UInt8](repeating: 0, count: megabytes * 1_000_000)
                    for index in stride(from: 0, to: block.count, by: 4096) { block[index] = 1 }
                    Self.kept.append(block)
                }
                if info["block"] != nil { while true { sleep(1) } }
                DispatchQueue.main.asyncAfter(deadline: .now() + delay) {
                    if info["crash"] != nil { fatalError("crashed on purpose") }
                    contentHandler(request.content)
                }
            }
        }
        """

    struct Replay {
        var run: CommandRun
        var results: [[String: Any]]

        func process(_ index: Int) -> [String: Any] { results[index]["extensionProcess"] as? [String: Any] ?? [:] }
        func pid(_ index: Int) -> Int? { process(index)["pid"] as? Int }
        func reason(_ index: Int) -> String? {
            (results[index]["fallback"] as? [String: Any])?["reason"] as? String
        }
        func detail(_ index: Int) -> String {
            (results[index]["fallback"] as? [String: Any])?["detail"] as? String ?? ""
        }
        func events(_ index: Int) -> [(event: String, detail: String)] {
            (results[index]["timeline"] as? [[String: Any]] ?? []).map {
                ($0["event"] as? String ?? "", $0["detail"] as? String ?? "")
            }
        }
    }

    /// Replays `payloads` (name to JSON) through `source` in `mode`; results in path order.
    func replay(
        _ source: String, payloads: [String: String], mode: String, arguments: [String] = []
    ) async throws -> Replay {
        let folder = try TemporaryFolder()
        _ = try folder.write("ext/NotificationService.swift", source)
        for (name, json) in payloads { _ = try folder.write("payloads/\(name).json", json) }
        let run = try await runExecutable(
            richpushBinary(),
            [
                "replay", folder.path + "/payloads", "--extension", folder.path + "/ext", "--extension-process", mode,
                "--format", "json",
            ] + arguments,
            environment: ["XDG_CACHE_HOME": Self.cache])
        let results = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]]
        return Replay(run: run, results: try #require(results, "no results: \(run.stderr)"))
    }

    static func payload(_ title: String, _ extra: String = "") -> String {
        #"{"aps":{"alert":{"title":"\#(title)","body":"b"},"mutable-content":1}\#(extra.isEmpty ? "" : "," + extra)}"#
    }

    @Test("reuse: one process takes the next notification; its pid, count and instance are in each result")
    func reused() async throws {
        let payloads = ["a": Self.payload("A"), "b": Self.payload("B"), "c": Self.payload("C")]
        let reused = try await replay(Self.behaving, payloads: payloads, mode: "reuse")
        #expect(reused.results.count == 3)
        let pids = Set((0..<3).compactMap { reused.pid($0) })
        #expect(pids.count == 1, "\(reused.results.map { $0["extensionProcess"] ?? "" })")
        #expect(Set((0..<3).compactMap { reused.process($0)["handledBefore"] as? Int }) == [0, 1, 2])
        #expect(Set((0..<3).compactMap { reused.process($0)["instance"] as? String }) == ["#1", "#2", "#3"])
        for index in 0..<3 {
            let named = reused.events(index).first { $0.event == "extensionProcess" }?.detail ?? ""
            #expect(named.hasPrefix("process \(reused.pid(index) ?? -1) (its "), "\(named)")
            #expect(reused.reason(index) == nil)
        }

        // One process per notification: three pids.
        let each = try await replay(Self.behaving, payloads: payloads, mode: "each")
        #expect(Set((0..<3).compactMap { each.pid($0) }).count == 3)
        #expect((0..<3).allSatisfy { each.process($0)["handledBefore"] as? Int == 0 })

        // same-instance: one instance receives every didReceive.
        let same = try await replay(Self.behaving, payloads: payloads, mode: "same-instance")
        #expect(Set((0..<3).compactMap { same.process($0)["instance"] as? String }) == ["#1"])
        #expect(Set((0..<3).compactMap { same.pid($0) }).count == 1)
    }

    @Test("reuse: a request and a line belong to the notification waiting for its handler, not to the one before")
    func attribution() async throws {
        let fetching = """
            import UserNotifications
            class NotificationService: UNNotificationServiceExtension {
                override func didReceive(_ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void) {
                    let name = request.content.title
                    let url = URL(string: "https://fixtures.richpush.test/cat.png?n=" + name)!
                    URLSession(configuration: .ephemeral).dataTask(with: url) { _, _, _ in
                        print("fetched " + name)
                        contentHandler(request.content)
                    }.resume()
                }
            }
            """
        let names = ["n1", "n2", "n3", "n4"]
        // An image URL on the fixture CDN, so that the replay starts it.
        let image = #""fcm_options":{"image":"https://fixtures.richpush.test/cat.png"}"#
        let payloads = names.reduce(into: [String: String]()) { $0[$1] = Self.payload($1, image) }
        let replayed = try await replay(fetching, payloads: payloads, mode: "reuse")
        #expect(Set((0..<4).compactMap { replayed.pid($0) }).count == 1)
        for (index, name) in names.enumerated() {
            let requests = replayed.events(index).filter { $0.event == "extensionRequest" }.map(\.detail)
            #expect(requests.count == 1 && requests[0].contains("cat.png?n=\(name) "), "\(name): \(requests)")
            #expect(replayed.results[index]["extensionLog"] as? [String] == ["fetched \(name)"])
        }
    }

    @Test("concurrent: a vendor SDK's report goes to the notification it is about, so each ends as it does alone")
    func vendorReportsAreAttributed() async throws {
        let folder = try TemporaryFolder()
        for name in ["http-url", "exif-jpeg-served-as-octet-stream", "twelve-megabytes"] {
            _ = try folder.write(
                "payloads/\(name).json", try String(contentsOfFile: "payloads/sdk/\(name).json", encoding: .utf8))
        }
        func reasons(_ mode: String) async throws -> [String] {
            let run = try await runExecutable(
                richpushBinary(),
                [
                    "replay", folder.path + "/payloads", "--extension", "examples/extensions/vendors/onesignal",
                    "--extension-process", mode, "--format", "json",
                ], environment: ["XDG_CACHE_HOME": Self.cache])
            let results = try #require(
                try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]], "\(run.stderr)")
            return results.map { ($0["fallback"] as? [String: Any])?["reason"] as? String ?? "none" }
        }
        // In path order: exif-…, http-url, twelve-megabytes, each with OneSignal's own reason.
        let alone = try await reasons("each")
        #expect(alone == ["unsupportedImageType", "insecureURL", "attachmentRejected"])
        #expect(try await reasons("concurrent") == alone)
    }

    @Test("a crash ends every notification in flight in its process, each extensionCrashed with the same signal")
    func crash() async throws {
        let replayed = try await replay(
            Self.behaving,
            payloads: [
                "1-crash": Self.payload("Crash", #""delay":0.5,"crash":true"#),
                "2-wait": Self.payload("Wait", #""delay":3"#), "3-wait": Self.payload("Wait too", #""delay":3"#),
            ], mode: "concurrent")
        #expect(Set((0..<3).compactMap { replayed.pid($0) }).count == 1)
        for index in 0..<3 {
            #expect(replayed.reason(index) == "extensionCrashed", "\(replayed.results[index]["fallback"] ?? "")")
            #expect(replayed.detail(index).contains("crashed with signal"), "\(replayed.detail(index))")
            #expect(replayed.detail(index).contains("crashed on purpose"), "\(replayed.detail(index))")
        }
        #expect(replayed.detail(0) == replayed.detail(1) && replayed.detail(1) == replayed.detail(2))
    }

    @Test("the memory limit is the process's: three notifications of 10 MB each pass it together, not apart")
    func memory() async throws {
        let payloads = (1...3).reduce(into: [String: String]()) {
            $0["p\($1)"] = Self.payload("P\($1)", #""delay":1.5,"megabytes":10"#)
        }
        // `each`: 10 MB per process, under the 24 MB limit.
        let apart = try await replay(Self.behaving, payloads: payloads, mode: "each")
        #expect((0..<3).allSatisfy { apart.reason($0) == nil }, "\(apart.results.map { $0["fallback"] ?? "" })")
        // `concurrent`: 30 MB in one process.
        let together = try await replay(Self.behaving, payloads: payloads, mode: "concurrent")
        for index in 0..<3 {
            #expect(together.reason(index) == "extensionMemoryLimit", "\(together.results[index]["fallback"] ?? "")")
        }
    }

    @Test("a main thread that never returns: every notification the process holds ends at its budget and grace")
    func blocked() async throws {
        let replayed = try await replay(
            Self.behaving,
            payloads: [
                // The others would deliver before their budget, but for the main thread the first one blocks
                // (whichever reaches the process first).
                "1-block": Self.payload("Block", #""block":true"#), "2": Self.payload("Two", #""delay":0.9"#),
                "3": Self.payload("Three", #""delay":0.9"#),
            ], mode: "concurrent", arguments: ["--extension-budget", "1s"])
        for index in 0..<3 {
            #expect(replayed.reason(index) == "contentHandlerNeverCalled", "\(replayed.results[index])")
            #expect(replayed.events(index).contains { $0.event == "timeWillExpire" })
            let ended = replayed.events(index).first { $0.event == "extensionEnded" }?.detail ?? ""
            #expect(ended.contains("budget of 1 s") && ended.contains("grace of 1 s"), "\(ended)")
            // Budget and grace, plus the time the replay took to start it.
            #expect((replayed.results[index]["elapsed"] as? Double ?? 99) < 3.5)
        }
    }

    @Test("a process's container is the process's: a later notification sees what an earlier one left")
    func container() async throws {
        let source = """
            import UserNotifications
            class NotificationService: UNNotificationServiceExtension {
                override func didReceive(_ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void) {
                    let marker = FileManager.default.temporaryDirectory.appendingPathComponent("marker")
                    print("marker \\(FileManager.default.fileExists(atPath: marker.path))")
                    try? Data("x".utf8).write(to: marker)
                    contentHandler(request.content)
                }
            }
            """
        let replayed = try await replay(
            source, payloads: ["a": Self.payload("A"), "b": Self.payload("B")], mode: "reuse")
        let logs = replayed.results.compactMap { $0["extensionLog"] as? [String] }
        #expect(logs.sorted { $0.description < $1.description } == [["marker false"], ["marker true"]])
    }

    /// The examples' payloads replayed through the example in `mode`.
    func example(_ name: String, mode: String, extra: [String] = []) async throws -> Replay {
        let run = try await runExecutable(
            richpushBinary(),
            [
                "replay", "payloads/extensions/\(name)", "--extension", "examples/extensions/\(name)",
                "--extension-process", mode, "--format", "json",
            ] + extra,
            environment: ["XDG_CACHE_HOME": Self.cache])
        let results = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]]
        return Replay(run: run, results: try #require(results, "no results: \(run.stderr)"))
    }

    @Test(
        "examples/extensions/shared-state passes one process per notification and fails with crossTalk named otherwise",
        arguments: ["reuse", "concurrent", "same-instance"])
    func sharedState(mode: String) async throws {
        let each = try await example("shared-state", mode: "each")
        #expect(each.run.status == 0, "\(each.run.stderr)")
        #expect(each.results.allSatisfy { $0["crossTalk"] is NSNull })

        let shared = try await example("shared-state", mode: mode)
        #expect(shared.run.status == 1)
        let files = Set(shared.results.compactMap { $0["file"] as? String })
        let crossTalk = shared.results.compactMap { $0["crossTalk"] as? [String: Any] }
        #expect(crossTalk.count >= shared.results.count - 1, "\(shared.results.map { $0["crossTalk"] ?? "" })")
        for found in crossTalk {
            #expect(files.contains(found["other"] as? String ?? ""), "names another payload: \(found)")
            // The evidence, not a coincidence: another request's content, or a call from another request's code.
            let detail = found["detail"] as? String ?? ""
            // Each phrase is one of the two facts; the old coincidence ("was called 2 times while …") matches none.
            let evidence = [
                "a content made from", "its content was delivered through", "its content handler was called from",
                "serviceExtensionTimeWillExpire() called", "didReceive called",
            ]
            #expect(evidence.contains { detail.contains($0) }, "\(detail)")
        }
        // The text report names it too.
        let text = try await runExecutable(
            richpushBinary(),
            [
                "replay", "payloads/extensions/shared-state", "--extension", "examples/extensions/shared-state",
                "--extension-process", mode,
            ], environment: ["XDG_CACHE_HOME": Self.cache])
        #expect(text.stdout.contains("crossTalk: expected null, got {\"other\":\"payloads/extensions/shared-state/"))
    }

    @Test(
        "examples/extensions/naive keeps no shared state: no crossTalk in any mode, though it calls a handler twice",
        arguments: ["reuse", "concurrent"])
    func naiveHasNoCrossTalk(mode: String) async throws {
        let replay = try await example("naive", mode: mode)
        #expect(!replay.results.isEmpty, "\(replay.run.stderr)")
        for result in replay.results {
            #expect(result["crossTalk"] is NSNull, "\(result["file"] ?? ""): \(result["crossTalk"] ?? "")")
        }
        // The faults are still each notification's own: http-url's second call, slower-than-5s's expiry.
        let httpURL = replay.results.first { ($0["file"] as? String ?? "").hasSuffix("http-url.json") }
        #expect(httpURL?["contentHandlerCalls"] as? Int == 2)
    }

    @Test("the blueprint never shows cross-talk: 100 rounds of 20 payloads in one concurrent replay, all as expected")
    func blueprintNeverCrossTalks() async throws {
        let folder = try TemporaryFolder()
        let images = [
            "cat.png", "cat.png?delay=150ms", "cat.png?type=text/html", "cat.png?status=404", "cat.png?drip=64KB",
        ]
        for round in 1...100 {
            for index in 1...20 {
                let image = images[index % images.count]
                _ = try folder.write(
                    "payloads/r\(round)/p\(index).json",
                    #"{"aps":{"alert":{"title":"Round \#(round) payload \#(index)","body":"b"},"mutable-content":1},"fcm_options":{"image":"https://fixtures.richpush.test/\#(image)"}}"#
                )
            }
        }
        let run = try await runExecutable(
            richpushBinary(),
            [
                "replay", folder.path + "/payloads", "--extension", "examples/extensions/blueprint",
                "--extension-process", "concurrent", "--format", "jsonl",
            ], environment: ["XDG_CACHE_HOME": Self.cache])
        let results = run.stdout.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        #expect(results.count == 2000, "\(run.stderr.suffix(500))")
        var pids: Set<Int> = []
        for result in results {
            #expect(result["crossTalk"] is NSNull, "\(result["file"] ?? ""): \(result["crossTalk"] ?? "")")
            // Each shows its own title, rich exactly when its image is one the blueprint accepts.
            let file = result["file"] as? String ?? ""
            let parts = file.split(separator: "/").suffix(2)
            let round = parts.first?.dropFirst() ?? ""
            let index = Int(parts.last?.dropFirst().dropLast(5) ?? "") ?? 0
            #expect(result["title"] as? String == "Round \(round) payload \(index)")
            let rich = [0, 1, 4].contains(index % images.count)
            #expect((result["style"] as? String == "rich") == rich, "\(file): \(result["fallback"] ?? "")")
            if let pid = (result["extensionProcess"] as? [String: Any])?["pid"] as? Int { pids.insert(pid) }
        }
        #expect(pids.count < 20, "the notifications went through few processes, not one each: \(pids.count)")
    }

    @Test("--extension-process all prints a matrix, a column per mode; the blueprint passes in every one")
    func matrix() async throws {
        let run = try await runExecutable(
            richpushBinary(),
            [
                "replay", "payloads/extensions/blueprint", "--extension", "examples/extensions/blueprint",
                "--extension-process", "all", "--format", "json",
            ], environment: ["XDG_CACHE_HOME": Self.cache])
        #expect(run.status == 0, "\(run.stdout.suffix(2000))")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(json["modes"] as? [String] == ["each", "reuse", "concurrent", "same-instance"])
        let summary = json["summary"] as? [String: Any]
        #expect(summary?["failed"] as? Int == 0)
        #expect(summary?["passed"] as? Int == 28)
    }

    @Test("--extension-process refuses an unknown mode, a mode without --extension, and all outside replay")
    func refusals() async throws {
        let unknown = try await runExecutable(
            richpushBinary(),
            [
                "replay", "payloads/rich", "--extension", "examples/extensions/blueprint",
                "--extension-process", "pooled",
            ])
        #expect(unknown.status == 2)
        #expect(
            unknown.stderr.contains(
                "--extension-process must be one of each, reuse, concurrent, same-instance or all, not \"pooled\""))
        let alone = try await runExecutable(
            richpushBinary(), ["replay", "payloads/rich", "--extension-process", "reuse"])
        #expect(alone.status == 2)
        #expect(alone.stderr.contains("give --extension too"))
        let serve = try await runExecutable(
            richpushBinary(),
            ["serve", "--extension", "examples/extensions/blueprint", "--extension-process", "all"])
        #expect(serve.status == 2)
        #expect(serve.stderr.contains("--extension-process all is for replay"))
    }
}
