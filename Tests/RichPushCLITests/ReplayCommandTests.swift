import Foundation
import RichPushCore
import Testing
import RichPushTestSupport

/// `richpush replay` run as a user runs it: the real binary, the real fixture CDN over TLS on loopback.
@Suite(.serialized) struct ReplayCommandTests {
    static let fixtures = "\(repositoryRoot)/payloads/images"

    static func payload(title: String, image: String?, mutable: Bool = true) -> String {
        let imagePart = image.map { #", "fcm_options": {"image": "\#($0)"}"# } ?? ""
        return
            #"{"aps": {"alert": {"title": "\#(title)", "body": "b"}\#(mutable ? #", "mutable-content": 1"# : "")}\#(imagePart)}"#
    }

    @Test func passingExpectationsExitZeroAndEndWithTheSummary() async throws {
        let folder = try TemporaryFolder()
        try folder.write("cat.json", Self.payload(title: "Cat", image: "https://fixtures.richpush.test/cat.png"))
        try folder.write(
            "cat.expect.json",
            #"{"expect": {"style": "rich", "attachment": {"format": "png", "width": 640, "height": 480}}}"#)
        let run = try await runRichpush(["replay", folder.path, "--fixtures", Self.fixtures])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdoutLines.dropLast().last == "1 passed, 0 failed")
        let line = try #require(run.stdoutLines.first)
        #expect(line.hasPrefix("PASS  background  rich"))
        #expect(line.contains(#""Cat" png 640x480"#))
    }

    @Test func aFailedExpectationExitsOneAndNamesTheField() async throws {
        let folder = try TemporaryFolder()
        try folder.write(
            "cat.json", Self.payload(title: "Cat", image: "https://fixtures.richpush.test/cat.png?status=404"))
        try folder.write("cat.expect.json", #"{"expect": {"style": "rich"}}"#)
        let run = try await runRichpush(["replay", folder.path, "--fixtures", Self.fixtures])
        #expect(run.status == 1)
        #expect(run.stdout.contains(#"style: expected "rich", got "plain""#))
        #expect(run.stdout.contains("plain: httpStatus (HTTP 404"))
        #expect(run.stdoutLines.dropLast().last == "0 passed, 1 failed")
    }

    @Test func givenOverridesTheStateForOnePayload() async throws {
        let folder = try TemporaryFolder()
        try folder.write("a.json", Self.payload(title: "A", image: "https://fixtures.richpush.test/cat.png"))
        try folder.write(
            "a.expect.json",
            #"{"given": {"appState": "foreground"}, "expect": {"appState": "foreground", "fallback": {"reason": "foreground"}}}"#
        )
        try folder.write("b.json", Self.payload(title: "B", image: "https://fixtures.richpush.test/cat.png"))
        try folder.write("b.expect.json", #"{"expect": {"appState": "closed", "style": "rich"}}"#)
        let run = try await runRichpush(["replay", folder.path, "--state", "closed", "--fixtures", Self.fixtures])
        #expect(run.status == 0, "\(run.stdout)")
        #expect(run.stdoutLines.dropLast().last == "2 passed, 0 failed")
    }

    @Test func jsonLinesHaveOneResultPerPayloadAndTheSummaryOnStandardError() async throws {
        let folder = try TemporaryFolder()
        for name in ["c", "a", "b"] {
            try folder.write(
                "\(name).json", Self.payload(title: name.uppercased(), image: "https://fixtures.richpush.test/cat.png"))
        }
        try folder.write("b.expect.json", #"{"expect": {"style": "plain"}}"#)
        let run = try await runRichpush(["replay", folder.path, "--format", "jsonl", "--fixtures", Self.fixtures])
        #expect(run.status == 1)
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.count == 3)
        // Written as each finishes: every payload once, in whatever order they finished.
        let titles = try lines.map { try JSONParser.parse(Array($0.utf8))["title"]?.stringValue }
        #expect(Set(titles.compactMap { $0 }) == ["A", "B", "C"])
        #expect(try lines.allSatisfy { try JSONParser.parse(Array($0.utf8))["style"] == "rich" })
        #expect(run.stderr.split(separator: "\n").last == "0 passed, 1 failed")
    }

    @Test func jsonIsAnArrayOfContractObjectsOrderedByPath() async throws {
        let folder = try TemporaryFolder()
        for name in ["c", "a", "b"] {
            try folder.write(
                "\(name).json", Self.payload(title: name.uppercased(), image: "https://fixtures.richpush.test/cat.png"))
        }
        try folder.write("b.expect.json", #"{"expect": {"style": "rich"}}"#)
        let run = try await runRichpush(["replay", folder.path, "--format", "json", "--fixtures", Self.fixtures])
        #expect(run.status == 0)
        let document = try JSONParser.parse(Array(run.stdout.utf8))
        guard case .array(let results) = document else {
            Issue.record("not an array: \(run.stdout)")
            return
        }
        #expect(results.map { $0["title"] } == ["A", "B", "C"])
        #expect(results.map { $0["file"]?.stringValue?.hasSuffix(".json") } == [true, true, true])
        let first = try #require(results.first?.objectValue)
        for key in [
            "file", "appState", "delivered", "rejection", "extensionInvoked", "style", "title", "subtitle", "body",
            "imageURL", "attachment", "fallback", "hint", "timeline", "elapsed",
        ] {
            #expect(first[key] != nil, "missing \(key)")
        }
        #expect(first["attachment"]?["sha256"]?.stringValue?.count == 64)
        // Standard output is the document alone; the summary goes to the terminal on standard error.
        #expect(run.stderr.split(separator: "\n").last == "1 passed, 0 failed")
    }

    @Test func junitHasATestCasePerPayloadWithExpectations() async throws {
        let folder = try TemporaryFolder()
        try folder.write("ok.json", Self.payload(title: "Ok", image: nil))
        try folder.write("ok.expect.json", #"{"expect": {"style": "plain"}}"#)
        try folder.write("bad.json", Self.payload(title: "Bad <&>", image: nil))
        try folder.write("bad.expect.json", #"{"expect": {"style": "rich"}}"#)
        try folder.write("unchecked.json", Self.payload(title: "U", image: nil))
        let output = "\(folder.path)/report.xml"
        let run = try await runRichpush(["replay", folder.path, "--format", "junit", "--output", output])
        #expect(run.status == 1)
        #expect(run.stdoutLines.dropLast().last == "1 passed, 1 failed")
        let xml = try String(contentsOfFile: output, encoding: .utf8)
        #expect(xml.components(separatedBy: "<testcase ").count - 1 == 2)
        #expect(xml.contains(#"<failure message="style: expected &quot;rich&quot;, got &quot;plain&quot;">"#))
        #expect(xml.contains("&quot;Bad &lt;&amp;&gt;&quot;"))
        #expect(!xml.contains("unchecked.json"))
    }

    @Test func aMalformedPayloadIsAResultAndTheOthersStillRun() async throws {
        let folder = try TemporaryFolder()
        try folder.write("1-good.json", Self.payload(title: "Good", image: nil))
        try folder.write("2-broken.json", "{\"aps\": {\"alert\": \"x\",}")
        try folder.write(
            "2-broken.expect.json", #"{"expect": {"delivered": false, "rejection": {"reason": "malformedJSON"}}}"#)
        try folder.write("3-good.json", Self.payload(title: "Also good", image: nil))
        let run = try await runRichpush(["replay", folder.path])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdoutLines.count >= 3)
        #expect(run.stdout.contains("rejected: malformedJSON (not valid JSON at line 1, column 23"))
        #expect(run.stdout.contains(#""Also good" plain text"#))
    }

    @Test func anUnreadablePayloadIsReportedAndFailsWithoutStoppingTheBatch() async throws {
        // A broken link is unreadable for every user, root included (a chmod 0 file is not).
        let folder = try TemporaryFolder()
        try FileManager.default.createSymbolicLink(
            atPath: "\(folder.path)/gone.json", withDestinationPath: "\(folder.path)/no-such-target.json")
        try folder.write("open.json", Self.payload(title: "Open", image: nil))
        let run = try await runRichpush(["replay", folder.path])
        #expect(run.status == 1)
        #expect(run.stderr.contains("gone.json: a broken link"), "\(run.stderr)")
        #expect(run.stdout.contains("ERR "))
        #expect(run.stdout.contains(#""Open" plain text"#))
        #expect(run.stdoutLines.dropLast().last == "0 passed, 1 failed")
    }

    @Test func aBrokenExpectationFileFailsItsPayloadNamingTheFile() async throws {
        let folder = try TemporaryFolder()
        try folder.write("p.json", Self.payload(title: "P", image: nil))
        try folder.write("p.expect.json", #"{"given": {"appState": "sleeping"}, "expect": {}}"#)
        let run = try await runRichpush(["replay", folder.path])
        #expect(run.status == 1)
        #expect(run.stdout.contains("p.expect.json: given.appState must be"))
    }

    @Test(arguments: [
        (["replay"], "Missing expected argument"),
        (["replay", "payloads", "--format", "yaml"], "yaml"),
        (["replay", "payloads", "--state", "asleep"], "asleep"),
        (["replay", "payloads", "--jobs", "0"], "--jobs must be at least 1"),
        (["replay", "payloads", "--download-timeout", "soon"], "soon"),
        (["replay", "payloads", "--image-key", "a..b"], "a..b"),
        (["replay", "/no/such/folder"], "/no/such/folder: no such file or folder"),
        (
            ["replay", "payloads", "--output", "/no/such/dir/out.txt"],
            "cannot write the report to /no/such/dir/out.txt: No such file or directory"
        ),
    ])
    func usageAndIOErrorsExitTwoWithOneLine(arguments: [String], message: String) async throws {
        let run = try await runRichpush(arguments)
        #expect(run.status == 2)
        let lines = run.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(run.stderr)")
        #expect(run.stderr.contains(message), "\(run.stderr)")
        #expect(!run.stderr.contains("Fatal error"))
    }

    @Test func resultsKeepPathOrderWhateverFinishesFirst() async throws {
        let folder = try TemporaryFolder()
        // The first payloads are the slowest, so they finish last.
        for index in 0..<12 {
            let delay = (12 - index) * 40
            try folder.write(
                String(format: "%02d.json", index),
                Self.payload(title: "N\(index)", image: "https://fixtures.richpush.test/cat.png?delay=\(delay)ms"))
        }
        let run = try await runRichpush(["replay", folder.path, "--jobs", "12", "--fixtures", Self.fixtures])
        #expect(run.status == 0)
        let titles = run.stdoutLines.compactMap { line -> String? in
            guard let start = line.range(of: "\"N"), let end = line[start.upperBound...].firstIndex(of: "\"") else {
                return nil
            }
            return "N" + line[start.upperBound..<end]
        }
        #expect(titles == (0..<12).map { "N\($0)" })
    }

    @Test func aFolderOfTimeoutsAllFallBack() async throws {
        let folder = try TemporaryFolder()
        let count = 8
        for index in 0..<count {
            try folder.write(
                "slow-\(index).json",
                Self.payload(title: "S\(index)", image: "https://fixtures.richpush.test/cat.png?delay=3s"))
            try folder.write("slow-\(index).expect.json", #"{"expect": {"fallback": {"reason": "timeout"}}}"#)
        }
        let run = try await runRichpush([
            "replay", folder.path, "--download-timeout", "1s", "--jobs", "\(count)", "--fixtures", Self.fixtures,
        ])
        #expect(run.status == 0, "\(run.stdout)")
        #expect(run.stdoutLines.dropLast().last == "\(count) passed, 0 failed")
        // One after another they would take count × 1 s; side by side about one timeout. The figure is
        // reported, not asserted (shared machines are noisy); ReplayRunnerTests proves they overlap.
        print("replay of \(count) one-second timeouts took \(run.seconds) s")
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script")))
    func onATerminalAnUnreadablePayloadIsSaidOnceAndInAPipeOnStandardErrorToo() async throws {
        let folder = try TemporaryFolder()
        try folder.write("good.json", #"{"aps": {"alert": "hi"}}"#)
        #expect(mkfifo(folder.path + "/fifo.json", 0o644) == 0)
        let problem = "fifo.json: is a FIFO (named pipe), not a regular file"
        // script(1) runs the replay on a pseudo-terminal that is both its standard output and standard error.
        let terminal = try await runExecutable(
            "/usr/bin/script", ["-qec", "'\(richpushBinary())' replay '\(folder.path)'", "/dev/null"])
        #expect(terminal.stdout.components(separatedBy: problem).count - 1 == 1, "\(terminal.stdout)")
        #expect(terminal.stdout.contains("ERR "), "the report's line says it")

        let piped = try await runRichpush(["replay", folder.path])
        #expect(piped.stdout.contains(problem), "the report")
        #expect(piped.stderr.contains(problem), "and standard error, for whoever reads only that")
    }

    @Test func aTMPDIRThatCannotHoldAttachmentsIsOneLineNamingItAndWhy() async throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("not-a-folder", "x")
        let run = try await runRichpush(
            ["replay", "payloads/rich/png-background.json"], environment: ["TMPDIR": file])
        #expect(run.status == 2)
        #expect(
            run.stderr == "richpush replay: cannot create the attachment folder in \(file) (TMPDIR): not a directory\n")
        #expect(run.stdout.isEmpty)
    }

    /// The attachment folder is made before the fixture CDN starts; a CDN that cannot start stops the command, and
    /// what had started (the folder) is removed as at any other end.
    @Test func aFixtureCDNThatCannotStartLeavesNoAttachmentFolderBehind() async throws {
        let temporary = try TemporaryFolder()
        let run = try await runRichpush(
            ["replay", "payloads/rich/png-background.json", "--fixtures", "README.md"],
            environment: ["TMPDIR": temporary.path])
        #expect(run.status == 2)
        #expect(
            run.stderr
                == "richpush replay: cannot start the fixture CDN on README.md: fixture root \(repositoryRootPath)/README.md is not a directory\n"
        )
        let left = try FileManager.default.contentsOfDirectory(atPath: temporary.path)
        #expect(left.isEmpty, "left behind: \(left)")
    }

    @Test func ctrlCRemovesTheDownloadedAttachmentsAndExits130() async throws {
        let folder = try TemporaryFolder()
        let temporary = try TemporaryFolder()
        try folder.write("fast.json", Self.payload(title: "F", image: "https://fixtures.richpush.test/cat.png"))
        try folder.write(
            "slow.json", Self.payload(title: "S", image: "https://fixtures.richpush.test/cat.png?delay=20s"))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: richpushBinary())
        // HTML keeps each finished attachment until the replay ends (it embeds them), so one is there to wait for.
        process.arguments = [
            "replay", folder.path, "--fixtures", Self.fixtures, "--download-timeout", "30s", "--format", "html",
        ]
        process.environment = ProcessInfo.processInfo.environment.merging(["TMPDIR": temporary.path]) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()

        // Wait until the fast payload's image is on disk, then interrupt.
        let deadline = Date().addingTimeInterval(15)
        var attachments: [String] = []
        while attachments.isEmpty, Date() < deadline {
            try await Task.sleep(for: .milliseconds(50))
            let stores = (try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? []
            attachments = stores.flatMap { store in
                ((try? FileManager.default.contentsOfDirectory(atPath: "\(temporary.path)/\(store)")) ?? [])
                    .filter { $0.hasSuffix(".png") }
            }
        }
        #expect(!attachments.isEmpty, "the replay never stored an attachment")
        process.interrupt()
        await waitForExit(process)
        #expect(process.terminationStatus == 130)
        let left = try FileManager.default.contentsOfDirectory(atPath: temporary.path).filter {
            $0.hasPrefix("richpush-")
        }
        #expect(left.isEmpty, "left behind: \(left)")
    }

    @Test func payloadTextCannotControlTheTerminal() async throws {
        let folder = try TemporaryFolder()
        try folder.write(
            "evil.json",
            #"{"aps": {"alert": {"title": "\u001b[2J\u001b]0;pwned\u0007Evil\r\nTitle\u202e", "body": "b"}}}"#)
        let run = try await runRichpush(["replay", folder.path])
        #expect(run.status == 0)
        #expect(!run.stdout.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
        #expect(!run.stdout.unicodeScalars.contains { $0.value == 0x202E })
        #expect(run.stdout.contains(#""Evil Title" plain text"#))
    }
}
