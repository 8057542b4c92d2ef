import Crypto
import Foundation
import RichPushCore
import RichPushServe
import Testing

#if canImport(Glibc)
    import Glibc
#endif
import RichPushServeTestSupport
import RichPushTestSupport

@Suite("richpush push (the binary)", .serialized)
struct PushCommandTests {
    static func push(_ arguments: [String]) async throws -> (status: Int32, output: String) {
        try await runAsync(richpushBinary(), ["push"] + arguments, mergingErrors: true, in: repositoryRootURL)
    }

    @Test("every subcommand's help reads as written: no words run apart, no default said twice")
    func helpText() async throws {
        for command in ["push", "serve", "replay", "tui", "serve-fixtures", "show", "extension check"] {
            let run = try await runExecutable(
                richpushBinary(), command.split(separator: " ").map(String.init) + ["--help"])
            #expect(run.status == 0)
            // The prose before USAGE, without the indented examples (whose comments are aligned on purpose).
            let prose = (run.stdout.components(separatedBy: "USAGE:").first ?? "").split(separator: "\n")
                .filter { !$0.hasPrefix(" ") }
            for line in prose {
                #expect(line.range(of: #"\S {3,}\S"#, options: .regularExpression) == nil, "\(command): \(line)")
            }
            #expect(
                run.stdout.range(of: #"\(default: ([^)]*)\)\. \(default: \1\)"#, options: .regularExpression) == nil,
                "\(command) --help says a default twice")
        }
    }

    @Test("push sends APNs, .apns and FCM files to a running serve; each arrives; exit 0 when all are accepted")
    func intoRunningServe() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("richpush-push-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let caFile = directory.appendingPathComponent("ca.pem").path
        let serve = try ServeProcess([
            "--count", "3", "--format", "jsonl", "--ca-out", caFile, "--bundle-id", "com.example.shop",
        ])
        let port = try #require(try await serve.port(), "no banner: \(serve.standardError)")
        let (status, output) = try await Self.push([
            "--to", "https://127.0.0.1:\(port)", "--cacert", caFile, "--topic", "com.example.shop",
            "payloads/rich/png-closed.json", "payloads/sources/simulator.apns", "payloads/sources/fcm-v1-message.json",
        ])
        #expect(status == 0, "\(output)")
        let lines = output.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines[0].contains("png-closed.json  APNs 200  apns-id "))
        #expect(lines[1].contains("simulator.apns  APNs 200"))
        #expect(lines[2].contains("fcm-v1-message.json  FCM 200  projects/richpush/messages/"))

        #expect(try await serve.exitStatus() == 0)
        let results = serve.standardOutput.split(separator: "\n").compactMap { try? JSONParser.parse(Array($0.utf8)) }
        #expect(results.count == 3)
        #expect(Set(results.compactMap { $0["transport"]?.stringValue }) == ["apnsHTTP2", "fcmHTTP"])
        #expect(results.allSatisfy { $0["style"]?.stringValue == "rich" }, "\(serve.standardOutput)")
    }

    @Test("a refused push prints Apple's reason and exits 1; a .apns file's target bundle is its topic")
    func refused() async throws {
        let folder = try TemporaryFolder()
        let broken = "\(folder.path)/broken.json"
        try FileManager.default.createSymbolicLink(atPath: broken, withDestinationPath: "\(folder.path)/gone.json")
        try await withServer { harness in
            let (status, output) = try await Self.push([
                "--to", "https://127.0.0.1:\(harness.server.port)", "--cacert", harness.caFile.path,
                "--priority", "3", "payloads/sources/simulator.apns", "payloads/rejected/malformed.json", broken,
            ])
            #expect(status == 1)
            let lines = output.split(separator: "\n")
            #expect(lines.count == 3, "\(output)")
            #expect(lines[0].contains("simulator.apns  APNs 400  BadPriority"))
            #expect(lines[1].contains("malformed.json  APNs 400"))
            #expect(lines[2].contains("broken.json  error: cannot open the file: missing, or a broken link"))
            let entries = harness.server.store.snapshot().notifications
            #expect(entries.first?["apns"]?["topic"] == "com.example.shop")
        }
    }

    @Test(
        "push reads payload files as replay does: a FIFO, a folder, a broken link or an oversized file is one line in replay's words, and the FIFO is not waited on"
    )
    func unreadableFiles() async throws {
        let folder = try TemporaryFolder()
        let fifo = try folder.fifo("pipe.json")
        let big = try folder.write("big.json", #"{"aps":{"alert":""# + String(repeating: "x", count: 70_000) + #""}}"#)
        let directory = "\(folder.path)/folder.json"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        let missing = "\(folder.path)/missing.json"
        try FileManager.default.createSymbolicLink(atPath: missing, withDestinationPath: "\(folder.path)/gone.json")
        // Nothing is sent, so no server is needed.
        let (status, output) = try await Self.push(["--to", "https://127.0.0.1:1", fifo, directory, missing, big])
        #expect(status == 1, "\(output)")
        #expect(
            output.split(separator: "\n") == [
                "\(fifo)  error: is a FIFO (named pipe), not a regular file",
                "\(directory)  error: is a folder, not a regular file",
                "\(missing)  error: cannot open the file: missing, or a broken link",
                "\(big)  error: the file is 70020 bytes; APNs accepts at most 4096",
            ])
        // Replay's words for the same FIFO and oversized file.
        let replay = try await runExecutable(richpushBinary(), ["replay", fifo, big])
        #expect(replay.stdout.contains("\(fifo): is a FIFO (named pipe), not a regular file"), "\(replay.stdout)")
        #expect(replay.stdout.contains("(the file is 70020 bytes; APNs accepts at most 4096)"), "\(replay.stdout)")
    }

    @Test("a path that does not exist is refused before anything is sent, in replay's words and with its status 2")
    func aMissingPathIsRefusedFirst() async throws {
        try await withServer { harness in
            let (status, output) = try await Self.push([
                "--to", "https://127.0.0.1:\(harness.server.port)", "--cacert", harness.caFile.path,
                "payloads/sources/simulator.apns", "no-such-file.json",
            ])
            #expect(status == 2, "\(output)")
            #expect(output == "richpush push: no-such-file.json: no such file or folder\n")
            #expect(harness.server.store.snapshot().notifications.isEmpty, "a push was sent")
        }
        let replay = try await runExecutable(richpushBinary(), ["replay", "payloads/sources", "no-such-file.json"])
        #expect(replay.status == 2)
        #expect(replay.stderr == "richpush replay: no-such-file.json: no such file or folder\n")
    }

    @Test("a file push may not read is named in replay's words", .enabled(if: getuid() != 0, "root reads any file"))
    func unreadableByPermission() async throws {
        let folder = try TemporaryFolder()
        let locked = try folder.write("locked.json", #"{"aps":{"alert":"hi"}}"#)
        chmod(locked, 0)
        let (status, output) = try await Self.push(["--to", "https://127.0.0.1:1", locked])
        #expect(status == 1)
        #expect(output == "\(locked)  error: cannot read the file: permission denied\n")
    }

    @Test("a server whose certificate push does not trust: exit 2, and the line says to give --cacert")
    func untrustedCertificate() async throws {
        try await withServer { harness in
            let (status, output) = try await Self.push([
                "--to", "https://127.0.0.1:\(harness.server.port)", "payloads/rich/png-closed.json",
            ])
            #expect(status == 2)
            #expect(
                output.contains("the TLS handshake failed (is its certificate trusted? give --cacert FILE"), "\(output)"
            )
            #expect(output.split(separator: "\n").count == 1)
        }
    }

    @Test("with --auth-key, push signs tokens the server verifies with the same key")
    func signed() async throws {
        try await withServer(signingKey: TestKeys.signingKey) { harness in
            let keyFile = harness.temporary.appendingPathComponent("AuthKey_\(TestKeys.keyID).p8")
            try TestKeys.key.pemRepresentation.write(to: keyFile, atomically: false, encoding: .utf8)
            let arguments = [
                "--to", "https://127.0.0.1:\(harness.server.port)", "--cacert", harness.caFile.path,
                "--topic", testBundleID, "payloads/rich/png-closed.json",
            ]
            let (status, output) = try await Self.push(
                arguments + ["--auth-key", keyFile.path, "--key-id", TestKeys.keyID, "--team-id", TestKeys.teamID])
            #expect(status == 0, "\(output)")
            #expect(await harness.nextResult()?.apns.auth?.hasSuffix("signature verified") == true)
            let (unsigned, refusal) = try await Self.push(arguments)
            #expect(unsigned == 1 && refusal.contains("InvalidProviderToken"), "\(refusal)")
        }
    }

    @Test("push interrupted while it waits for an answer exits 128 + the signal, as an interrupted job does")
    func interrupted() async throws {
        let silent = try BlackholeListener()
        defer { silent.close() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: richpushBinary())
        process.arguments = ["push", "--to", "https://127.0.0.1:\(silent.port)", "payloads/rich/png-closed.json"]
        process.currentDirectoryURL = repositoryRootURL
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Once push handles SIGINT it is starting its client or waiting on the connection, which never answers.
        #expect(await waitUntilCatching(SIGINT, pid: process.processIdentifier), "push never got ready for SIGINT")
        #expect(process.isRunning, "push ended before the signal")
        let signalled = ContinuousClock.now
        kill(process.processIdentifier, SIGINT)
        await waitForExit(process)
        #expect(process.terminationReason == .exit, "killed by the signal instead of exiting")
        #expect(process.terminationStatus == 130)
        // Not after the 5 s a connection attempt may take (it took 4.8 s when push waited for its client's shutdown).
        let took = ContinuousClock.now - signalled
        #expect(took < .seconds(4), "push took \(took) to end after Ctrl-C")
    }

    @Test("no richpush listening, or a bad flag: exit 2 with one line")
    func unreachable() async throws {
        let (status, output) = try await Self.push(["--to", "https://127.0.0.1:1", "payloads/rich/png-closed.json"])
        #expect(status == 2)
        #expect(output.contains("no richpush answers at https://127.0.0.1:1"), "\(output)")
        #expect(output.split(separator: "\n").count == 1)
        let (usage, _) = try await Self.push(["--key-id", "X", "payloads/rich/png-closed.json"])
        #expect(usage == 2)
    }
}
