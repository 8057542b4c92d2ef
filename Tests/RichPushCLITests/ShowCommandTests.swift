import Foundation
import RichPushTestSupport
import Testing

/// `richpush show` and `replay --preview`, through the real binary.
@Suite struct ShowCommandTests {
    /// Runs `executable` in the repository with `environment` only (plus PATH), no terminal attached.
    static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) async throws
        -> CommandRun
    {
        try await runExecutable(executable, arguments, environment: environment, inherit: false)
    }

    static func show(_ arguments: [String], environment: [String: String] = ["TERM": "xterm-256color"]) async throws
        -> CommandRun
    {
        try await run(richpushBinary(), ["show"] + arguments, environment: environment)
    }

    @Test func drawsACorpusImageInTheTerminalsColours() async throws {
        let run = try await Self.show(["payloads/images/cat.png", "--width", "40", "--height", "10"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.isEmpty)
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.count == 10, "640x480 in 40x10 cells is 10 rows tall")
        #expect(run.stdout.contains("48;5;"), "256 colours for TERM=xterm-256color")
        #expect(!run.stdout.contains(";2;"))

        let truecolor = try await Self.show(
            ["payloads/images/cat.png", "--width", "40", "--height", "10"],
            environment: ["TERM": "xterm-256color", "COLORTERM": "truecolor"])
        #expect(truecolor.status == 0 && truecolor.stdout.contains("48;2;"), "24-bit colours for COLORTERM=truecolor")
    }

    @Test func drawsWithThePixelProtocolChafaDetects() async throws {
        let kitty = try await Self.show(
            ["payloads/images/cat.png", "--width", "20", "--height", "6"], environment: ["TERM": "xterm-kitty"])
        #expect(kitty.status == 0 && kitty.stdout.hasPrefix("\u{1B}_G"), "the kitty graphics protocol")
        let forced = try await Self.show(
            ["payloads/images/cat.png", "--width", "20", "--height", "6", "--symbols"],
            environment: ["TERM": "xterm-kitty"])
        #expect(forced.status == 0 && !forced.stdout.contains("\u{1B}_G") && forced.stdout.contains("48;"))
    }

    @Test func aFileThatIsNotAnImageIsOneLineNamingIt() async throws {
        let text = try await Self.show(["payloads/images/not-an-image.txt"])
        #expect(text.status == 1)
        #expect(text.stdout.isEmpty)
        #expect(text.stderr.hasPrefix("richpush show: payloads/images/not-an-image.txt: not an image"))
        #expect(text.stderr.split(separator: "\n").count == 1)

        let missing = try await Self.show(["payloads/images/none-such.png"])
        #expect(
            missing.status == 1
                && missing.stderr
                    == "richpush show: payloads/images/none-such.png: cannot open the file: missing, or a broken link\n"
        )

        let unsupported = try await Self.show(["payloads/images/sample.bmp"])
        #expect(unsupported.status == 1 && unsupported.stderr.contains("BMP images are not shown"))

        let bomb = try await Self.show(["payloads/images/bomb.png"])
        #expect(bomb.status == 1 && bomb.stderr.contains("over the 50-megapixel budget"))
    }

    /// A FIFO is refused without being opened for a blocking read (it used to hang `show` forever).
    @Test func aFIFOIsRefusedInsteadOfWaitedOn() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("richpush-show-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("image.png").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let shown = try await Self.show([fifo])
        #expect(shown.status == 1 && shown.stdout.isEmpty)
        #expect(shown.stderr == "richpush show: \(fifo): is a FIFO (named pipe), not a regular file\n")
    }

    @Test func aURLIsFetchedWithTheExtensionsRules() async throws {
        let fixtures = ["--fixtures", "payloads/images", "--width", "30", "--height", "8"]
        let cat = try await Self.show(["https://fixtures.richpush.test/cat.png"] + fixtures)
        #expect(cat.status == 0, "\(cat.stderr)")
        #expect(cat.stdout.contains("48;5;"))
        #expect(cat.stdout.hasSuffix("png 640x480 2.9 KB · a notification would show it\n"))

        let page = try await Self.show(["https://fixtures.richpush.test/page.html"] + fixtures)
        #expect(page.status == 1 && page.stdout.isEmpty)
        #expect(page.stderr.contains("a notification would show no image — notAnImage: served text/html"))

        let http = try await Self.show(["http://fixtures.richpush.test/cat.png"] + fixtures)
        #expect(http.status == 1 && http.stderr.contains("insecureURL: http:// image URLs are refused"))
    }

    @Test func aFileFullOfEscapeSequencesDoesNotReachTheTerminal() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "richpush-show-\(UUID().uuidString).png")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data("\u{1B}]0;pwned\u{07}\u{1B}[2J not a picture \u{9B}31m".utf8).write(to: file)
        let run = try await Self.show([file.path])
        #expect(run.status == 1 && run.stdout.isEmpty)
        #expect(run.stderr.contains("not an image"))
        #expect(!run.stderr.contains("\u{1B}") && !run.stderr.contains("\u{9B}") && !run.stderr.contains("\u{07}"))
    }

    @Test(arguments: [
        ["--sdk", "onesignal"], ["--image-key", "data.x"], ["--extension", "examples/extensions/naive"],
    ])
    func payloadOnlyOptionsAreNotOfferedAndAreUsageErrors(option: [String]) async throws {
        let run = try await Self.show(["https://fixtures.richpush.test/cat.png"] + option)
        #expect(run.status == 2 && run.stdout.isEmpty)
        #expect(run.stderr.contains("Unknown option '\(option[0])'"), "\(run.stderr)")
        let help = try await Self.show(["--help"])
        #expect(!help.stdout.contains(option[0] + " <"), "\(help.stdout)")
        #expect(help.stdout.contains("--download-timeout <DUR>") && help.stdout.contains("--fixtures <DIR>"))
    }

    @Test func previewPrintsNothingExtraWhenStandardOutputIsNotATerminal() async throws {
        let payloads = ["payloads/rich/png-background.json", "payloads/fallback/http-url.json"]
        let plain = try await Self.run(richpushBinary(), ["replay"] + payloads, environment: ["TERM": "xterm-256color"])
        let preview = try await Self.run(
            richpushBinary(), ["replay"] + payloads + ["--preview"], environment: ["TERM": "xterm-256color"])
        #expect(plain.status == 0 && preview.status == 0)
        #expect(!preview.stdout.contains("\u{1B}"), "a pipe gets the report alone")
        #expect(preview.stdout.split(separator: "\n").count == plain.stdout.split(separator: "\n").count)
    }

    // script(1) gives the replay a pseudo-terminal for standard output.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script")))
    func previewDrawsTheRichNotificationsImageUnderItsLineOnATerminal() async throws {
        let command =
            "\(richpushBinary()) replay payloads/rich/png-background.json payloads/fallback/http-url.json --preview"
        let run = try await Self.run(
            "/usr/bin/script", ["-qec", command, "/dev/null"], environment: ["TERM": "xterm-256color"])
        #expect(run.status == 0, "\(run.stdout)")
        let lines = run.stdout.replacingOccurrences(of: "\r", with: "").split(separator: "\n").map(String.init)
        guard let rich = lines.firstIndex(where: { $0.contains("payloads/rich/png-background.json") }) else {
            Issue.record("no line for the rich payload: \(run.stdout)")
            return
        }
        let under = lines[(rich + 1)...].prefix { $0.hasPrefix("    \u{1B}[") }
        #expect(under.count == 10, "the image's rows, indented under its line")
        #expect(under.allSatisfy { $0.contains("48;5;") })
        guard let plainLine = lines.firstIndex(where: { $0.contains("payloads/fallback/http-url.json") }) else {
            Issue.record("no line for the plain payload")
            return
        }
        #expect(
            lines.indices.contains(plainLine + 1) && !lines[plainLine + 1].hasPrefix("    \u{1B}["),
            "a plain notification gets no image")
    }
}
