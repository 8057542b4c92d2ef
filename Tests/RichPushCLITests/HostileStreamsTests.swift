import Foundation
import Testing
import RichPushFiles
import RichPushTestSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The real `richpush` binary against outputs and streams a careful user would not pick: symlinks, devices,
/// a payload named as the report, `/dev/stdout` for an unprivileged user, a reader that goes away, a full disk,
/// and the signals that stop a process (INT, TERM, HUP).
@Suite(.serialized) struct HostileStreamsTests {
    static let fixtures = "\(repositoryRoot)/payloads/images"

    static func payload(title: String, image: String? = nil, body: String = "b") -> String {
        let imagePart = image.map { #", "fcm_options": {"image": "\#($0)"}"# } ?? ""
        return
            #"{"aps": {"alert": {"title": "\#(title)", "body": "\#(body)"}, "mutable-content": 1}\#(imagePart)}"#
    }

    // MARK: --output and --ca-out are written in place

    @Test func aSymlinkedOutputStaysALinkAndItsTargetGetsTheReport() async throws {
        let folder = try TemporaryFolder()
        try folder.write("in/p.json", Self.payload(title: "Linked"))
        let target = try folder.write("reports/real.txt", "the previous report\n")
        let link = "\(folder.path)/report.txt"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)

        let run = try await runRichpush(["replay", "\(folder.path)/in", "--output", link])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == target, "the link was replaced")
        let report = try String(contentsOfFile: target, encoding: .utf8)
        #expect(report.contains(#""Linked" plain text"#), "\(report)")
        #expect(!report.contains("the previous report"))
    }

    /// A character device that answers every write with ENOSPC, as `/dev/full` does. As root a private node made
    /// with mknod, so that a regression replaces a file of this test, not the machine's `/dev/full`; other users
    /// cannot replace anything in `/dev`, so they get `/dev/full` itself.
    static func fullDevice(in folder: TemporaryFolder) -> String {
        let path = "\(folder.path)/full"
        guard getuid() == 0,
            let attributes = try? FileManager.default.attributesOfItem(atPath: "/dev/full"),
            let device = (attributes[.deviceIdentifier] as? NSNumber)?.uint64Value,
            mknod(path, S_IFCHR | 0o666, dev_t(device)) == 0
        else { return "/dev/full" }
        return path
    }

    /// Whether `path` itself (not what a link points to) is a character device.
    static func isCharacterDevice(_ path: String) -> Bool {
        let type = (try? FileManager.default.attributesOfItem(atPath: path))?[.type] as? FileAttributeType
        return type == .typeCharacterSpecial
    }

    @Test func anOutputDeviceThatIsFullGetsOneLineAndExitTwoAndStaysADevice() async throws {
        let folder = try TemporaryFolder()
        try folder.write("in/p.json", Self.payload(title: "Full"))
        let device = Self.fullDevice(in: folder)
        try #require(Self.isCharacterDevice(device))

        let run = try await runRichpush(["replay", "\(folder.path)/in", "--output", device])
        #expect(run.status == 2)
        #expect(
            run.stderr == "richpush replay: cannot write the report to \(device): No space left on device\n",
            "\(run.stderr)")
        #expect(Self.isCharacterDevice(device), "\(device) was replaced")
    }

    /// `mkfifo report; cat report & richpush replay … --output report`: the reader gets the whole report and an
    /// end-of-file after it, and richpush exits. (Closing the FIFO after the start-up check once gave the reader
    /// its end-of-file at once, and richpush then waited at the end for a reader that had gone.)
    @Test func aFIFOWithItsReaderWaitingGetsTheWholeReport() async throws {
        let folder = try TemporaryFolder()
        try folder.write("in/a.json", Self.payload(title: "Through a pipe"))
        try folder.write("in/a.expect.json", #"{"expect": {"style": "plain"}}"#)
        let fifo = try folder.fifo("report")
        // The reader is there before richpush starts. Opened without blocking, it is told of end-of-file only once
        // a writer has come and gone (Linux's FIFO rule for poll), so a read of 0 bytes then means a writer closed.
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        try #require(reader >= 0)
        defer { close(reader) }
        let received = Task.detached { () -> [UInt8] in
            var bytes: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            let start = ContinuousClock.now
            while ContinuousClock.now - start < .seconds(60) {
                // Read only when poll says so: before any writer came, read(2) would return 0 at once, but poll
                // reports nothing (no data, no hang-up) until a writer has come.
                var ready = pollfd(fd: reader, events: Int16(POLLIN), revents: 0)
                let events = poll(&ready, 1, 100)
                if events == 0 || (events < 0 && errno == EINTR) { continue }
                guard events > 0 else { break }
                let count = read(reader, &buffer, buffer.count)
                if count > 0 { bytes += buffer[0..<count] }
                if count == 0 { break }
            }
            return bytes
        }

        let process = try Self.startQuietly(["replay", "\(folder.path)/in", "--output", fifo])
        let guardTask = Self.killAfterTimeout(process)
        defer { guardTask.cancel() }
        let report = String(decoding: await received.value, as: UTF8.self)
        await waitForExit(process)

        #expect(process.terminationReason == .exit, "killed by signal \(process.terminationStatus)")
        #expect(process.terminationStatus == 0)
        #expect(report.contains(#""Through a pipe" plain text"#), "\(report)")
        #expect(report.hasSuffix("1 passed, 0 failed\n"), "\(report)")
        #expect((try? FileNode.itself(fifo).get())?.kind == .fifo, "the FIFO was replaced")
    }

    @Test(arguments: ["payload", "expectation"])
    func anOutputThatIsOneOfTheInputsIsRefusedAndTheInputKept(named input: String) async throws {
        let folder = try TemporaryFolder()
        let payloadText = Self.payload(title: "Keep me")
        let expectationText = #"{"expect": {"style": "plain"}}"#
        let payload = try folder.write("in/a.json", payloadText)
        let expectation = try folder.write("in/a.expect.json", expectationText)
        try folder.write("in/b.json", Self.payload(title: "Other"))
        // The expectation is named through a symlink: the same file by another name is still the same file.
        let output: String
        if input == "payload" {
            output = payload
        } else {
            output = "\(folder.path)/link-to-expectation.json"
            try FileManager.default.createSymbolicLink(atPath: output, withDestinationPath: expectation)
        }

        let run = try await runRichpush(["replay", "\(folder.path)/in", "--output", output])
        #expect(run.status == 2)
        #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
        #expect(run.stderr.contains("--output \(output) is the \(input)"), "\(run.stderr)")
        #expect(try String(contentsOfFile: payload, encoding: .utf8) == payloadText)
        #expect(try String(contentsOfFile: expectation, encoding: .utf8) == expectationText)
    }

    @Test func devStdoutWorksForAnUnprivilegedUser() async throws {
        let folder = try TemporaryFolder()
        try folder.write("p.json", Self.payload(title: "To stdout"))
        try folder.write("p.expect.json", #"{"expect": {"style": "plain"}}"#)
        guard let run = try await runRichpushAsNobody(["replay", folder.path, "--output", "/dev/stdout"]) else {
            print("skipped: needs root and runuser to run richpush as nobody")
            return
        }
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains(#""To stdout" plain text"#), "\(run.stdout)")
        #expect(run.stdout.hasSuffix("1 passed, 0 failed\n"), "\(run.stdout)")
    }

    @Test func aCAOutSymlinkStaysALinkAndTheCertificateIsKeptAfterTheServerStops() async throws {
        let folder = try TemporaryFolder()
        let target = try folder.write("certs/ca.pem", "old\n")
        let link = "\(folder.path)/ca-link.pem"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)

        let server = try FixtureServer(["--fixtures", Self.fixtures, "--ca-out", link])
        #expect(server.caPath == link)
        server.signal(SIGTERM)
        let stopped = await server.wait()
        #expect(!stopped.endedBySignal && stopped.status == 0, "\(stopped)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == target, "the link was replaced")
        let pem = try String(contentsOfFile: target, encoding: .utf8)
        #expect(pem.hasPrefix("-----BEGIN CERTIFICATE-----"), "\(pem)")
    }

    // MARK: standard output that cannot be written

    @Test func aReaderThatGoesAwayEndsTheReplaySilentlyWithStatusTwo() async throws {
        // More than a pipe holds (64 KiB), so richpush is still writing when the reader leaves.
        let folder = try TemporaryFolder()
        let body = String(repeating: "long body ", count: 100)
        for index in 0..<120 {
            try folder.write(String(format: "p%03d.json", index), Self.payload(title: "P\(index)", body: body))
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: richpushBinary())
        process.arguments = ["replay", folder.path, "--format", "json"]
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        async let errorRead = readToEnd(err.fileHandleForReading)

        let first = try out.fileHandleForReading.read(upToCount: 1)
        #expect(first == Data("[".utf8))
        try out.fileHandleForReading.close()
        await waitForExit(process)
        let stderr = String(decoding: await errorRead, as: UTF8.self)

        #expect(process.terminationReason == .exit, "ended by signal \(process.terminationStatus)")
        #expect(process.terminationStatus == 2)
        #expect(!stderr.contains("Fatal error"), "\(stderr)")
        #expect(stderr.isEmpty, "a closed pipe is not worth a message: \(stderr)")
    }

    @Test func aFullStandardOutputIsOneLineAndStatusTwo() async throws {
        let folder = try TemporaryFolder()
        try folder.write("p.json", Self.payload(title: "Full"))
        let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
        let run = try await runRichpush(["replay", folder.path], standardOutput: full)
        #expect(!run.endedBySignal, "ended by signal \(run.status)")
        #expect(run.status == 2)
        #expect(run.stderr == "richpush: cannot write to standard output: No space left on device\n", "\(run.stderr)")
    }

    // MARK: A full disk under the attachments

    /// The attachment store on a full file system (a 16 KB tmpfs, filled, in a private mount namespace): each
    /// payload falls back with a detail that names the store and says the disk is full, for a small image written
    /// at the end and for a large one streamed to a partial file, never a network error or Foundation's error dump.
    /// Needs root and unshare(1); skipped otherwise.
    @Test func aFullDiskUnderTheAttachmentsIsSaidAsSuch() async throws {
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare") else {
            print("skipped: needs root and unshare to mount a full tmpfs")
            return
        }
        let folder = try TemporaryFolder()
        try folder.write("in/a-small.json", Self.payload(title: "S", image: "https://fixtures.richpush.test/cat.png"))
        try folder.write(
            "in/b-large.json", Self.payload(title: "L", image: "https://fixtures.richpush.test/cat.png?pad=100KB"))
        let tiny = "\(folder.path)/tiny"
        try FileManager.default.createDirectory(atPath: tiny, withIntermediateDirectories: false)
        let script = """
            mount -t tmpfs -o size=16k tmpfs "$1" || exit 99
            dd if=/dev/zero of="$1/fill" bs=1k count=64 2>/dev/null
            TMPDIR="$1" exec "$2" replay "$3" --fixtures "$4" --format json
            """
        let run = try await runExecutable(
            "/usr/bin/unshare",
            [
                "--mount", "--propagation", "private", "sh", "-c", script, "sh", tiny, richpushBinary(),
                "\(folder.path)/in",
                Self.fixtures,
            ])
        if run.status == 99 {
            print("skipped: cannot mount a tmpfs here: \(run.stderr)")
            return
        }
        let results = try #require(
            try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]], "\(run.stdout)")
        #expect(results.count == 2, "\(run.stdout)")
        for result in results {
            let fallback = result["fallback"] as? [String: Any]
            let detail = fallback?["detail"] as? String ?? ""
            #expect(result["style"] as? String == "plain", "\(result)")
            #expect(detail.hasPrefix("could not store the attachment in \(tiny)/richpush-"), "\(detail)")
            #expect(detail.hasSuffix(": No space left on device"), "\(detail)")
        }
    }

    // MARK: INT, TERM and HUP

    @Test func hangUpRemovesTheDownloadedAttachmentsAndExits129() async throws {
        let folder = try TemporaryFolder()
        let temporary = try TemporaryFolder()
        try folder.write("1-fast.json", Self.payload(title: "F", image: "https://fixtures.richpush.test/cat.png"))
        try folder.write(
            "2-slow.json", Self.payload(title: "S", image: "https://fixtures.richpush.test/cat.png?delay=6s"))
        // Padded past what a download keeps in memory and dripped, so its partial file sits in the store while it
        // downloads.
        try folder.write(
            "3-drip.json",
            Self.payload(title: "D", image: "https://fixtures.richpush.test/cat.png?pad=512KB&drip=64KB"))
        // The HTML report keeps each finished attachment until the replay ends (it embeds them); the other reports
        // let each go once its result is written, so only HTML is sure to hold one when the signal comes.
        let process = try Self.startQuietly(
            ["replay", folder.path, "--fixtures", Self.fixtures, "--download-timeout", "30s", "--format", "html"],
            temporaryDirectory: temporary.path)
        let guardTask = Self.killAfterTimeout(process)
        defer { guardTask.cancel() }

        // Wait until the store holds a finished attachment and a partial one, then hang up.
        // A listing that fails (the whole suite runs in one process, which can run short of descriptors) is kept
        // so that a miss says why.
        var stored: [String] = []
        var listingError: (any Error)?
        while process.isRunning,
            !(stored.contains { $0.hasSuffix(".png") } && stored.contains { $0.hasSuffix(".part") })
        {
            try await Task.sleep(for: .milliseconds(50))
            do {
                stored = try FileManager.default.contentsOfDirectory(atPath: temporary.path).flatMap { store in
                    try FileManager.default.contentsOfDirectory(atPath: "\(temporary.path)/\(store)")
                }
            } catch {
                listingError = error
            }
        }
        #expect(
            stored.contains { $0.hasSuffix(".part") },
            "no partial download was seen: \(stored), last listing error: \(String(describing: listingError))")
        kill(process.processIdentifier, SIGHUP)
        await waitForExit(process)

        #expect(process.terminationReason == .exit, "killed by signal \(process.terminationStatus)")
        #expect(process.terminationStatus == 129)
        let left = try FileManager.default.contentsOfDirectory(atPath: temporary.path).filter {
            $0.hasPrefix("richpush-\(process.processIdentifier)-")
        }
        #expect(left.isEmpty, "left behind: \(left)")
    }

    @Test("Ctrl-C while an image's server never answers ends the replay at once, its attachment folder removed")
    func anInterruptDoesNotWaitForAConnectionAttempt() async throws {
        let silent = try BlackholeListener()
        defer { silent.close() }
        let folder = try TemporaryFolder()
        let temporary = try TemporaryFolder()
        try folder.write("p.json", Self.payload(title: "Silent", image: "https://127.0.0.1:\(silent.port)/a.png"))
        let process = try Self.startQuietly(["replay", folder.path], temporaryDirectory: temporary.path)
        let guardTask = Self.killAfterTimeout(process)
        defer { guardTask.cancel() }
        #expect(await waitUntilCatching(SIGINT, pid: process.processIdentifier), "replay never got ready for SIGINT")
        // The download has started once the attachment folder exists.
        while process.isRunning, ((try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? []).isEmpty
        {
            try await Task.sleep(for: .milliseconds(10))
        }

        let signalled = ContinuousClock.now
        kill(process.processIdentifier, SIGINT)
        await waitForExit(process)
        let took = ContinuousClock.now - signalled
        #expect(process.terminationReason == .exit && process.terminationStatus == 130)
        // Not after the 5 s a connection attempt may take (4.5 s when the end waited for the HTTP clients' shutdown).
        #expect(took < .seconds(4), "replay took \(took) to end after Ctrl-C")
        let left = try FileManager.default.contentsOfDirectory(atPath: temporary.path)
        #expect(left.isEmpty, "left behind: \(left)")
    }

    /// SIGKILL cannot be caught, so a killed replay leaves its attachment folder; the next command removes it.
    @Test("the attachment folder of a replay killed by SIGKILL is removed by the next replay, not one still running")
    func aKilledReplaysFolderIsRemovedByTheNextOne() async throws {
        let silent = try BlackholeListener()
        defer { silent.close() }
        let folder = try TemporaryFolder()
        let temporary = try TemporaryFolder()
        try folder.write("p.json", Self.payload(title: "Silent", image: "https://127.0.0.1:\(silent.port)/a.png"))
        func startReplay() throws -> Process {
            try Self.startQuietly(
                ["replay", folder.path, "--download-timeout", "30s"], temporaryDirectory: temporary.path)
        }
        func folders() -> Set<String> {
            Set(
                ((try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? []).filter {
                    FileManager.default.fileExists(atPath: "\(temporary.path)/\($0)/.owner")
                })
        }
        func waitForFolders(_ count: Int) async throws {
            let deadline = ContinuousClock.now + .seconds(30)
            while folders().count < count, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(20))
            }
        }

        let killed = try startReplay()
        let killedGuard = Self.killAfterTimeout(killed)
        defer { killedGuard.cancel() }
        try await waitForFolders(1)
        let left = folders()
        try #require(left.count == 1, "the replay made no attachment folder")
        kill(killed.processIdentifier, SIGKILL)
        await waitForExit(killed)
        #expect(folders() == left, "SIGKILL leaves the folder behind")

        // The next replay removes it when it starts.
        let running = try startReplay()
        let runningGuard = Self.killAfterTimeout(running)
        defer { runningGuard.cancel() }
        let deadline = ContinuousClock.now + .seconds(30)
        while folders().subtracting(left).isEmpty, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        let own = folders().subtracting(left)
        try #require(own.count == 1, "the second replay made no attachment folder")
        #expect(folders() == own, "the killed replay's folder is still there: \(folders())")

        // A replay that starts while that one runs leaves its folder alone.
        let next = try await runExecutable(
            richpushBinary(), ["replay", "payloads/rich/png-background.json"],
            environment: ["TMPDIR": temporary.path])
        #expect(next.status == 0, "\(next)")
        #expect(folders() == own, "the running replay's folder was removed: \(folders())")
        running.interrupt()
        await waitForExit(running)
        #expect(folders().isEmpty)
    }

    /// SIGKILL leaves a temporary CA (serve, serve-fixtures and the TUI write one without --ca-out) as it leaves the
    /// attachment folder; the next command that writes one removes it, whichever server's it was.
    @Test(
        "the temporary CA of a serve or serve-fixtures killed by SIGKILL goes when the next one starts, a running one's stays"
    )
    func aKilledServersTemporaryCAIsRemovedByTheNextOne() async throws {
        let temporary = try TemporaryFolder()
        /// The temporary CA files in the folder, by their name or their folder's name.
        func caFiles() -> Set<String> {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? []
            return Set(
                names.filter {
                    ($0.hasPrefix("richpush-serve-ca-") || $0.hasPrefix("richpush-fixture-ca-"))
                        && ($0.hasSuffix(".pem")
                            || FileManager.default.fileExists(atPath: "\(temporary.path)/\($0)/ca.pem"))
                })
        }
        /// Starts `arguments` and waits until its CA file is there; the process and the file's folder.
        func start(_ arguments: [String]) async throws -> (Process, String) {
            let before = caFiles()
            let process = try Self.startQuietly(arguments, temporaryDirectory: temporary.path)
            let deadline = ContinuousClock.now + .seconds(30)
            while caFiles().subtracting(before).isEmpty, process.isRunning, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(20))
            }
            let new = caFiles().subtracting(before)
            try #require(new.count == 1, "\(arguments.joined(separator: " ")) wrote no temporary CA: \(new)")
            return (process, new.first!)
        }
        let serve = ["serve", "--listen", "127.0.0.1:0", "--fixtures", Self.fixtures]
        let fixtures = ["serve-fixtures", "--fixtures", Self.fixtures, "--port", "0"]

        // One serve runs throughout; each next command removes what the one killed before it left, of any server.
        let (running, kept) = try await start(serve)
        let runningGuard = Self.killAfterTimeout(running)
        defer { runningGuard.cancel() }
        var left: String?
        for arguments in [serve, fixtures, serve] {
            let (process, folder) = try await start(arguments)
            #expect(caFiles() == [kept, folder], "\(left ?? "") is still there: \(caFiles())")
            kill(process.processIdentifier, SIGKILL)
            await waitForExit(process)
            #expect(caFiles() == [kept, folder], "SIGKILL leaves the temporary CA behind")
            left = folder
        }

        running.interrupt()
        await waitForExit(running)
        #expect(!FileManager.default.fileExists(atPath: "\(temporary.path)/\(kept)"), "INT removes the folder")
    }

    /// A stop signal in a command's first milliseconds, while it still starts its parts (the fixture CDN, the push
    /// server), ends it as a later one does. It used to hang for good: the start was cancelled, and then waited for
    /// the server it had begun, which nothing stopped.
    @Test(
        "SIGTERM as soon as the handler is installed ends replay (143) and serve (0)", arguments: ["replay", "serve"])
    func aStopSignalWhileStartingEndsTheCommand(command: String) async throws {
        let silent = try BlackholeListener()
        defer { silent.close() }
        let folder = try TemporaryFolder()
        // An image whose server never answers, so the replay cannot end by itself before the signal.
        try folder.write("p.json", Self.payload(title: "Silent", image: "https://127.0.0.1:\(silent.port)/a.png"))
        let arguments = command == "replay" ? ["replay", folder.path] : ["serve", "--listen", "127.0.0.1:0"]
        for attempt in 1...3 {
            let process = try Self.startQuietly(arguments)
            let guardTask = Self.killAfterTimeout(process)
            defer { guardTask.cancel() }
            let ready = await waitUntilCatching(SIGTERM, pid: process.processIdentifier, interval: .milliseconds(1))
            #expect(ready, "\(command) never got ready for SIGTERM")
            kill(process.processIdentifier, SIGTERM)
            await waitForExit(process)
            #expect(
                process.terminationReason == .exit, "attempt \(attempt): killed by signal \(process.terminationStatus)")
            #expect(
                process.terminationStatus == (command == "replay" ? 143 : 0),
                "attempt \(attempt): exit \(process.terminationStatus)")
        }
    }

    @Test(arguments: [SIGHUP, SIGTERM, SIGINT])
    func serveFixturesStopsOnTheSignalAndRemovesItsTemporaryCA(signal: Int32) async throws {
        let temporary = try TemporaryFolder()
        let server = try FixtureServer(["--fixtures", Self.fixtures], temporaryDirectory: temporary.path)
        let caPath = try #require(server.caPath)
        #expect(caPath.hasPrefix(temporary.path), "\(caPath)")
        #expect(FileManager.default.fileExists(atPath: caPath))

        server.signal(signal)
        let stopped = await server.wait()
        #expect(!stopped.endedBySignal && stopped.status == 0, "\(stopped)")
        #expect(!FileManager.default.fileExists(atPath: caPath), "the temporary CA was left behind")
        let name = [SIGHUP: "SIGHUP", SIGTERM: "SIGTERM", SIGINT: "SIGINT"][signal] ?? "?"
        #expect(stopped.stderr.contains("stopped (\(name))"), "\(stopped.stderr)")
    }

    @Test func aHangUpIgnoredByNohupStaysIgnored() async throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/nohup") else {
            print("skipped: needs /usr/bin/nohup")
            return
        }
        let server = try FixtureServer(["--fixtures", Self.fixtures], underNohup: true)
        try #require(server.caPath != nil, "\(server.banner)")
        // HUP first, then TERM: had HUP been trapped, it would be the signal the server stopped on.
        server.signal(SIGHUP)
        server.signal(SIGTERM)
        let stopped = await server.wait()
        #expect(!stopped.endedBySignal && stopped.status == 0, "\(stopped)")
        #expect(stopped.stderr.contains("stopped (SIGTERM)"), "\(stopped.stderr)")
    }

    @Test("a busy port is one line in the system's words, as serve says it, and exit 2")
    func serveFixturesOnABusyPort() async throws {
        let server = try FixtureServer(["--fixtures", Self.fixtures, "--port", "0"])
        let port = try #require(server.banner.split(separator: "127.0.0.1:").last?.prefix { $0.isNumber })
        let run = try await runRichpush(["serve-fixtures", "--fixtures", Self.fixtures, "--port", String(port)])
        server.signal(SIGTERM)
        _ = await server.wait()
        #expect(run.status == 2)
        #expect(
            run.stderr == "richpush serve-fixtures: could not start on 127.0.0.1:\(port): Address already in use\n",
            "\(run.stderr)")
    }

    // MARK: one name for the fixture root

    @Test(arguments: ["--fixtures", "--root"])
    func serveFixturesTakesTheFixtureRootAsFixturesAndStillAsRoot(option: String) async throws {
        let folder = try TemporaryFolder()
        try FileManager.default.copyItem(atPath: "\(Self.fixtures)/cat.png", toPath: "\(folder.path)/cat.png")
        let server = try FixtureServer([option, folder.path])
        server.signal(SIGTERM)
        let stopped = await server.wait()
        let served = URL(fileURLWithPath: folder.path).resolvingSymlinksInPath().path
        #expect(server.banner.contains("Fixture CDN serving \(served)"), "\(server.banner)")
        #expect(!stopped.endedBySignal && stopped.status == 0, "\(stopped)")
    }

    @Test func serveFixturesHelpNamesFixturesAndNotTheOldRoot() async throws {
        let run = try await runRichpush(["serve-fixtures", "--help"])
        #expect(run.status == 0)
        #expect(run.stdout.contains("--fixtures <DIR>"), "\(run.stdout)")
        #expect(!run.stdout.contains("--root"), "\(run.stdout)")
    }

    // MARK: helpers

    /// Kills `process` if it is still running after a minute, so a hang fails the test instead of blocking the run.
    /// `richpush arguments` started in the background, its output discarded, with `TMPDIR` set when given.
    static func startQuietly(_ arguments: [String], temporaryDirectory: String? = nil) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: richpushBinary())
        process.arguments = arguments
        if let temporaryDirectory {
            process.environment = ProcessInfo.processInfo.environment.merging(["TMPDIR": temporaryDirectory]) { $1 }
        }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    static func killAfterTimeout(_ process: Process) -> Task<Void, Never> {
        let pid = process.processIdentifier
        return Task.detached {
            try? await Task.sleep(for: .seconds(60))
            if !Task.isCancelled, process.isRunning { kill(pid, SIGKILL) }
        }
    }
}

/// Runs `richpush` to its end with standard output going to `standardOutput`; standard error is captured.
func runRichpush(_ arguments: [String], standardOutput: FileHandle) async throws -> CommandRun {
    try await runExecutable(richpushBinary(), arguments, standardOutput: standardOutput)
}

/// `richpush serve-fixtures` running in the background, started and waited for its banner.
final class FixtureServer {
    let process = Process()
    private let out = Pipe()
    private let err = Pipe()
    private let errorReader: Task<Data, Never>
    /// What it printed up to "Press Ctrl-C to stop."
    private(set) var banner = ""

    /// `underNohup` starts it through nohup(1), which starts it with HUP ignored.
    init(_ arguments: [String], temporaryDirectory: String? = nil, underNohup: Bool = false) throws {
        if underNohup {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/nohup")
            process.arguments = [richpushBinary(), "serve-fixtures"] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: richpushBinary())
            process.arguments = ["serve-fixtures"] + arguments
        }
        process.currentDirectoryURL = URL(fileURLWithPath: repositoryRoot)
        var environment = ProcessInfo.processInfo.environment
        if let temporaryDirectory { environment["TMPDIR"] = temporaryDirectory }
        process.environment = environment
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let err = self.err
        errorReader = Task { await readToEnd(err.fileHandleForReading) }
        while !banner.contains("Press Ctrl-C to stop.") {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            banner += String(decoding: chunk, as: UTF8.self)
        }
    }

    /// The path after "CA certificate:" in the banner.
    var caPath: String? {
        banner.split(separator: "\n").first { $0.contains("CA certificate: ") }
            .map { String($0.split(separator: "CA certificate: ", maxSplits: 1).last ?? "") }
    }

    func signal(_ number: Int32) {
        kill(process.processIdentifier, number)
    }

    /// Waits for the end (killing it after a minute, so a hang fails the test rather than blocking the run).
    func wait() async -> CommandRun {
        let guardTask = HostileStreamsTests.killAfterTimeout(process)
        await waitForExit(process)
        guardTask.cancel()
        let stderr = String(decoding: await errorReader.value, as: UTF8.self)
        return CommandRun(
            status: process.terminationStatus, endedBySignal: process.terminationReason == .uncaughtSignal,
            stdout: banner, stderr: stderr, seconds: 0)
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
}
