import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import RichPushCore
import RichPushFiles
import RichPushServe
import RichPushServeTestSupport
import RichPushTestSupport
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `richpush serve --record DIR` as a user runs it: pushes sent with curl and `richpush push`, the recording replayed
/// with `richpush replay`, and hostile senders, folders and disks.
@Suite("richpush serve --record (the binary)", .serialized)
struct RecordCommandTests {
    /// A running `serve --record`, its CA and port.
    struct Recording {
        let serve: ServeProcess
        let ca: String
        let port: Int

        init(_ directory: String, in folder: TemporaryFolder, _ extra: [String] = []) async throws {
            ca = folder.path + "/ca-\(UUID().uuidString).pem"
            serve = try ServeProcess(["--record", directory, "--ca-out", ca, "--bundle-id", testBundleID] + extra)
            port = try #require(try await serve.port(), "no banner: \(serve.standardError)")
        }

        /// `curl --http2` to the APNs endpoint (or to `path`); the HTTP status. A `body` starting with `@` names a
        /// file, as curl takes it.
        func curl(
            token: String = testToken, body: String, headers: [String] = [], topic: String = testBundleID,
            path: String? = nil, authorization: String? = nil
        ) async throws -> String {
            var arguments = [
                "-s", "-o", "/dev/null", "-w", "%{http_code}", "--http2", "--cacert", ca,
                "-H", "authorization: \(authorization ?? "bearer \(TestJWT().token)")", "-H", "apns-topic: \(topic)",
            ]
            for header in headers { arguments += ["-H", header] }
            arguments += ["--data-binary", body, "https://localhost:\(port)\(path ?? "/3/device/\(token)")"]
            return try await runAsync(try #require(curlPath), arguments).output
        }

        /// `richpush push FILE` to this server; its exit status and output.
        func push(_ file: String, _ extra: [String] = []) async throws -> (status: Int32, output: String) {
            try await runAsync(
                richpushBinary(),
                ["push", file, "--to", "https://localhost:\(port)", "--cacert", ca, "--topic", testBundleID] + extra,
                mergingErrors: true, in: repositoryRootURL)
        }

        /// SIGTERM, then the exit status once everything queued was written.
        func stop() async throws -> Int32 {
            kill(serve.process.processIdentifier, SIGTERM)
            return try await serve.exitStatus()
        }
    }

    static func replay(_ arguments: [String], in directory: String = repositoryRoot) async throws -> CommandRun {
        try await runRichpush(["replay"] + arguments, in: directory)
    }

    /// Every file under `path`, relative to it.
    static func files(under path: String) -> [String] {
        (FileManager.default.enumerator(atPath: path)?.allObjects as? [String] ?? []).sorted()
    }

    static let namePattern = #"^(rejected/)?\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ-[a-z0-9-]+(\.expect)?\.json$"#

    @Test(
        "a mix (rich, plain, silent, FCM, refused, a collapse id, the foreground) sent with curl and richpush push replays, every result passing; a changed fixture image fails naming the field"
    )
    func mixReplays() async throws {
        let folder = try TemporaryFolder()
        let corpus = folder.path + "/corpus"
        let background = try await Recording(corpus, in: folder)
        let rich = try String(contentsOfFile: repositoryRoot + "/payloads/rich/png-background.json", encoding: .utf8)
        #expect(try await background.curl(body: rich, headers: ["apns-push-type: alert"]) == "200")
        #expect(try await background.curl(body: #"{"aps":{"alert":{"title":"Plain","body":"no image"}}}"#) == "200")
        #expect(
            try await background.curl(
                body: #"{"aps":{"content-available":1}}"#,
                headers: ["apns-push-type: background", "apns-priority: 5"]) == "200")
        let fcm = try await background.push("payloads/sources/fcm-v1-message.json")
        #expect(fcm.status == 0, "\(fcm.output)")
        let collapsed = try await background.push("payloads/rich/png-closed.json", ["--collapse-id", "chat-7"])
        #expect(collapsed.status == 0, "\(collapsed.output)")
        #expect(try await background.curl(token: "not-a-token", body: #"{"aps":{"alert":"x"}}"#) == "400")
        #expect(try await background.stop() == 0)
        #expect(
            background.serve.standardError.contains("recorded 6 pushes to \(corpus)"),
            "\(background.serve.standardError)")

        let foreground = try await Recording(corpus, in: folder, ["--state", "foreground"])
        #expect(try await foreground.push("payloads/foreground/png-foreground.json").status == 0)
        #expect(try await foreground.stop() == 0)

        let files = Self.files(under: corpus).filter { $0.hasSuffix(".json") }
        #expect(files.count == 14, "\(files)")
        #expect(files.allSatisfy { $0.range(of: Self.namePattern, options: .regularExpression) != nil }, "\(files)")
        #expect(files.filter { $0.hasPrefix("rejected/") }.count == 2)
        let everything = files.map { (try? String(contentsOfFile: corpus + "/" + $0, encoding: .utf8)) ?? "" }.joined()
        #expect(!everything.contains(testToken) && !everything.lowercased().contains("bearer"))
        #expect(!everything.contains(#""device-token""#), "the FCM registration token is hashed")
        #expect(everything.contains(#""apns-collapse-id": "chat-7""#))
        #expect(everything.contains(#""rejected": "BadDeviceToken""#))

        let replayed = try await Self.replay([corpus])
        #expect(replayed.status == 0, "\(replayed.stdout)\(replayed.stderr)")
        #expect(replayed.stdout.contains("7 passed, 0 failed"), "\(replayed.stdout)")
        for style in ["rich", "plain", "silent"] { #expect(replayed.stdout.contains("PASS  background  \(style)")) }
        #expect(replayed.stdout.contains("PASS  foreground  plain"))
        let rejected = try await Self.replay([corpus + "/rejected"])
        #expect(rejected.status == 0 && rejected.stdout.contains("1 passed, 0 failed"), "\(rejected.stdout)")

        // The fixture root with cat.png replaced by a JPEG: the payloads that showed cat.png fail on the format.
        let fixtures = folder.path + "/fixtures"
        try FileManager.default.copyItem(atPath: repositoryRoot + "/payloads/images", toPath: fixtures)
        try FileManager.default.removeItem(atPath: fixtures + "/cat.png")
        try FileManager.default.copyItem(atPath: fixtures + "/photo.jpg", toPath: fixtures + "/cat.png")
        let changed = try await Self.replay([corpus, "--fixtures", fixtures])
        #expect(changed.status == 1)
        #expect(changed.stdout.contains(#"attachment.format: expected "png", got "jpeg""#), "\(changed.stdout)")
        #expect(changed.stdout.contains(" passed, ") && !changed.stdout.contains(" 0 failed"))
    }

    @Test("--record-images keeps each image in DIR/images, so the recording replays offline; a changed image fails")
    func recordImages() async throws {
        let folder = try TemporaryFolder()
        let corpus = folder.path + "/corpus"
        let recording = try await Recording(corpus, in: folder, ["--record-images"])
        #expect(try await recording.push("payloads/rich/png-background.json").status == 0)
        #expect(try await recording.push("payloads/rich/png-closed.json").status == 0)
        #expect(try await recording.stop() == 0)
        let images = Self.files(under: corpus + "/images")
        #expect(images.count == 1 && images[0].hasSuffix(".png"), "\(images)")
        let payload = try #require(Self.files(under: corpus).first { $0.hasSuffix(".json") && !$0.contains("expect") })
        let text = try String(contentsOfFile: corpus + "/" + payload, encoding: .utf8)
        #expect(text.contains("https://fixtures.richpush.test/\(images[0])"))
        let expectation = try String(
            contentsOfFile: corpus + "/" + payload.replacingOccurrences(of: ".json", with: ".expect.json"),
            encoding: .utf8)
        #expect(expectation.contains(#""fixtures": "images""#))

        // From another folder, with no fixture root there: the images come from the recording.
        let offline = try await Self.replay([corpus], in: folder.path)
        #expect(
            offline.status == 0 && offline.stdout.contains("2 passed, 0 failed"), "\(offline.stdout)\(offline.stderr)")
        try FileManager.default.removeItem(atPath: corpus + "/images/" + images[0])
        try FileManager.default.copyItem(
            atPath: repositoryRoot + "/payloads/images/spinner.gif", toPath: corpus + "/images/" + images[0])
        let changed = try await Self.replay([corpus], in: folder.path)
        #expect(changed.status == 1)
        #expect(changed.stdout.contains(#"attachment.format: expected "png", got "gif""#), "\(changed.stdout)")
    }

    @Test("without --record-images, replay says the recording depends on the image's host")
    func dependsOnHost() async throws {
        let folder = try TemporaryFolder()
        let corpus = folder.path + "/corpus"
        let recording = try await Recording(corpus, in: folder)
        let body =
            #"{"aps":{"alert":"remote","mutable-content":1},"fcm_options":{"image":"https://cdn.invalid/a.png"}}"#
        #expect(try await recording.curl(body: body) == "200")
        #expect(try await recording.stop() == 0)
        let replayed = try await Self.replay([corpus])
        #expect(replayed.stderr.contains("1 recording fetch their image from cdn.invalid"), "\(replayed.stderr)")
    }

    @Test("topics, ids and collapse ids with /, .. and control characters name no file: every name is time and id")
    func hostileNames() async throws {
        let folder = try TemporaryFolder()
        let corpus = folder.path + "/corpus"
        let recording = try await Recording(corpus, in: folder)
        let body = #"{"aps":{"alert":"x"}}"#
        #expect(try await recording.curl(body: body, topic: "../../etc") == "400")
        #expect(try await recording.curl(body: body, headers: ["apns-id: ../../../tmp/evil"]) == "400")
        #expect(try await recording.curl(body: body, headers: ["apns-id: x\u{7F}/..\\y"]) == "400")
        #expect(try await recording.curl(body: body, headers: ["apns-collapse-id: ../../../escape"]) == "200")
        #expect(try await recording.curl(body: body, headers: ["apns-collapse-id: /etc/passwd"]) == "200")
        #expect(try await recording.stop() == 0)
        let inFolder = Self.files(under: folder.path)
        #expect(inFolder.allSatisfy { $0.hasPrefix("corpus") || $0.hasPrefix("ca-") }, "\(inFolder)")
        let files = Self.files(under: corpus).filter { $0 != "rejected" && $0 != RecordingSalt.fileName }
        #expect(files.count == 10, "\(files)")
        #expect(files.allSatisfy { $0.range(of: Self.namePattern, options: .regularExpression) != nil }, "\(files)")
        let replayed = try await Self.replay([corpus])
        #expect(replayed.status == 0 && replayed.stdout.contains("5 passed, 0 failed"), "\(replayed.stdout)")
    }

    @Test("a FIFO and a symbolic link where the recording's files would go are neither opened, followed nor replaced")
    func fifoAndSymlink() async throws {
        let folder = try TemporaryFolder()
        let outside = try TemporaryFolder()
        let corpus = folder.path + "/corpus"
        try FileManager.default.createDirectory(atPath: corpus, withIntermediateDirectories: true)
        let id = "0f0e0d0c-0b0a-4908-8706-050403020100"
        // The name is the second it arrives and its apns-id: every second of the next minute is taken.
        let start = Date()
        for second in 0..<60 {
            let stamp = RecordingName.stamp(start.addingTimeInterval(Double(second)))
            try folder.fifo("corpus/\(stamp)-\(id).expect.json")
            #expect(symlink(outside.path + "/target", corpus + "/\(stamp)-\(id)-2.json") == 0)
        }
        let recording = try await Recording(corpus, in: folder)
        #expect(try await recording.curl(body: #"{"aps":{"alert":"x"}}"#, headers: ["apns-id: \(id)"]) == "200")
        #expect(try await recording.stop() == 0)
        let written = Self.files(under: corpus).filter { $0.hasSuffix("-3.json") || $0.hasSuffix("-3.expect.json") }
        #expect(written.count == 2, "\(Self.files(under: corpus))")
        #expect(!FileManager.default.fileExists(atPath: outside.path + "/target"))
        for name in Self.files(under: corpus) where name.hasSuffix(".expect.json") && !name.contains("-3.") {
            #expect((try? FileNode.itself(corpus + "/" + name).get())?.kind == .fifo, "\(name)")
        }
        for name in Self.files(under: corpus) where name.hasSuffix("-2.json") {
            #expect((try? FileNode.itself(corpus + "/" + name).get())?.kind == .symlink, "\(name)")
        }
    }

    @Test("a file in place of DIR, or a DIR the user cannot write, is a start-up error naming it, exit 2")
    func unwritableFolder() async throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("corpus", "a file")
        let run = try await runRichpush(["serve", "--record", file, "--listen", "127.0.0.1:0"])
        #expect(run.status == 2)
        #expect(run.stderr == "richpush serve: cannot record into \(file): it is not a folder\n", "\(run.stderr)")

        // The user's own folder, read-only.
        let locked = folder.path + "/locked"
        try FileManager.default.createDirectory(atPath: locked, withIntermediateDirectories: false)
        if getuid() == 0, let nobody = getpwnam("nobody")?.pointee.pw_uid {
            #expect(chown(locked, nobody, nobody) == 0 && chmod(locked, 0o555) == 0)
        }
        if let asNobody = try await runRichpushAsNobody(["serve", "--record", locked, "--listen", "127.0.0.1:0"]) {
            #expect(asNobody.status == 2)
            #expect(
                asNobody.stderr.hasPrefix("richpush serve: cannot record into \(locked)")
                    && asNobody.stderr.contains("EACCES"), "\(asNobody.stderr)")
        }
        let missingParent = folder.path + "/no/such/parent"
        let missing = try await runRichpush(["serve", "--record", missingParent, "--listen", "127.0.0.1:0"])
        #expect(missing.status == 2 && missing.stderr.contains(missingParent), "\(missing.stderr)")
    }

    @Test(
        "a full disk: every push still gets its 200, each failed write is said with its file and ENOSPC, nothing partial is left"
    )
    func fullDisk() async throws {
        guard getuid() == 0 else { return }
        let folder = try TemporaryFolder()
        let corpus = folder.path + "/corpus"
        try FileManager.default.createDirectory(atPath: corpus, withIntermediateDirectories: false)
        let mounted = try await runAsync("/bin/mount", ["-t", "tmpfs", "-o", "size=64k,mode=0700", "tmpfs", corpus])
        try #require(mounted.status == 0, "cannot mount a tmpfs: \(mounted.output)")
        defer { _ = try? runExecutableBlocking("/bin/umount", [corpus]) }
        let recording = try await Recording(corpus, in: folder)
        let padding = String(repeating: "p", count: 1500)
        for index in 0..<80 {
            let body = #"{"aps":{"alert":"push \#(index)"},"pad":"\#(padding)"}"#
            #expect(try await recording.curl(body: body) == "200")
        }
        #expect(try await recording.stop() == 0)
        let errors = recording.serve.standardError
        #expect(errors.contains("No space left on device (ENOSPC)"), "\(errors)")
        #expect(errors.contains("cannot record push "), "\(errors)")
        let files = Self.files(under: corpus)
        #expect(!files.contains { $0.contains(".richpush-") || $0.hasSuffix(".tmp") }, "\(files)")
        let payloads = files.filter { $0.hasSuffix(".json") && !$0.hasSuffix(".expect.json") }
        #expect(!payloads.isEmpty && payloads.count < 80)
        for payload in payloads {
            let expectation = payload.replacingOccurrences(of: ".json", with: ".expect.json")
            #expect(files.contains(expectation), "\(payload) without its expectation")
            let bytes = try #require(FileManager.default.contents(atPath: corpus + "/" + payload))
            #expect((try? JSONParser.parse(Array(bytes))) != nil, "\(payload) is cut")
        }
        let summary = try #require(errors.split(separator: "\n").last { $0.contains("recorded ") })
        #expect(
            summary.contains("recorded \(payloads.count) pushes")
                && summary.contains("\(80 - payloads.count) could not be written"), "\(summary)")
    }

    @Test("10,000 pushes with --record-max 100: all 10,000 answered 200, exactly 100 recorded, one note")
    func recordMax() async throws {
        let folder = try TemporaryFolder()
        let corpus = folder.path + "/corpus"
        let recording = try await Recording(
            corpus, in: folder, ["--record-max", "100", "--format", "jsonl", "--output", "/dev/null"])
        let client = try ServeCommandTests.client(caPEM: try String(contentsOfFile: recording.ca, encoding: .utf8))
        let answered = StatusCounts()
        let port = recording.port
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for worker in 0..<32 {
                    group.addTask {
                        for index in stride(from: worker, to: 10_000, by: 32) {
                            var request = HTTPClientRequest(url: "https://localhost:\(port)/3/device/\(testToken)")
                            request.method = .POST
                            request.headers.add(name: "authorization", value: TestJWT().authorization)
                            request.headers.add(name: "apns-topic", value: testBundleID)
                            request.body = .bytes(ByteBuffer(string: #"{"aps":{"alert":"n\#(index)"}}"#))
                            let response = try await client.execute(request, timeout: .seconds(60))
                            _ = try await response.body.collect(upTo: 4096)
                            let code = Int(response.status.code)
                            answered.count(code)
                        }
                    }
                }
                try await group.waitForAll()
            }
        } catch {
            try? await client.shutdown()
            throw error
        }
        try await client.shutdown()
        #expect(answered.counts == [200: 10_000])
        #expect(try await recording.stop() == 0)
        let files = Self.files(under: corpus).filter { $0.hasSuffix(".json") }
        #expect(files.filter { !$0.hasSuffix(".expect.json") }.count == 100)
        #expect(files.filter { $0.hasSuffix(".expect.json") }.count == 100)
        let notes = recording.serve.standardError.components(separatedBy: "recording stopped:").count - 1
        #expect(notes == 1, "\(recording.serve.standardError)")
        #expect(
            recording.serve.standardError.contains("recorded 100 pushes")
                && recording.serve.standardError.contains("9900 served after recording stopped"))
    }

    // MARK: Secrets, limits and settings (#38)

    /// Every file's bytes under `path`, concatenated.
    static func everyByte(under path: String) -> Data {
        var all = Data()
        for name in files(under: path) {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: path + "/" + name, isDirectory: &isFolder), !isFolder.boolValue {
                all.append(FileManager.default.contents(atPath: path + "/" + name) ?? Data())
            }
        }
        return all
    }

    /// Waits (up to 30 s) until `count` files under `path` end in `suffix`.
    static func waitForFiles(_ count: Int, endingIn suffix: String, under path: String) async throws {
        for _ in 0..<600 {
            if files(under: path).filter({ $0.hasSuffix(suffix) }).count >= count { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        Issue.record("fewer than \(count) \(suffix) files under \(path): \(files(under: path))")
    }

    /// Waits (up to 30 s) until serve's standard error contains `text`.
    static func waitFor(_ text: String, from serve: ServeProcess) async throws {
        for _ in 0..<600 {
            if serve.standardError.contains(text) { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        Issue.record("serve never said \"\(text)\": \(serve.standardError)")
    }

    @Test("an FCM body over 64 KB, refused unparsed, is recorded without its registration token or project")
    func oversizedFCMBody() async throws {
        let folder = try TemporaryFolder()
        let corpus = folder.path + "/corpus"
        let recording = try await Recording(corpus, in: folder)
        let token = "fGx0SecretRegistrationToken:APA91bHsecretsecretsecret"
        let padding = String(repeating: "p", count: 70_000)
        let body = try folder.write(
            "big.json", #"{"message":{"token":"\#(token)","data":{"pad":"\#(padding)"}}}"#)
        let status = try await recording.curl(
            body: "@" + body, path: "/v1/projects/acme-prod-4711/messages:send", authorization: "Bearer ya29.x")
        #expect(status == "400")
        #expect(try await recording.stop() == 0)
        let rejected = Self.files(under: corpus + "/rejected").filter { $0.hasSuffix(".json") }
        #expect(rejected.count == 2, "\(Self.files(under: corpus))")
        let everything = Self.everyByte(under: corpus)
        #expect(everything.range(of: Data(token.utf8)) == nil, "the token reached the disk")
        #expect(everything.range(of: Data("APA91b".utf8)) == nil)
        #expect(everything.range(of: Data("acme-prod-4711".utf8)) == nil, "the project reached the disk")
        #expect(everything.range(of: Data(padding.prefix(1000).utf8)) != nil, "the body is kept but for its token")
    }

    @Test(
        "--record-images with a small --record-max-bytes: every file in the folder counts, images too, and no image is written once recording stopped"
    )
    func imagesCountAgainstMaxBytes() async throws {
        let folder = try TemporaryFolder()
        let corpus = folder.path + "/corpus"
        let limit = 8192
        let recording = try await Recording(corpus, in: folder, ["--record-images", "--record-max-bytes", "\(limit)"])
        func push(_ image: String) async throws {
            let body =
                #"{"aps":{"alert":"\#(image)","mutable-content":1},"fcm_options":{"image":"https://fixtures.richpush.test/\#(image)"}}"#
            #expect(try await recording.curl(body: body) == "200")
        }
        try await push("cat.png")
        try await Self.waitForFiles(1, endingIn: ".expect.json", under: corpus)
        try await push("photo.jpg")  // 9.4 KB: over the limit with what is there
        try await Self.waitFor("recording stopped", from: recording.serve)
        try await push("interlaced.png")  // 579 bytes: would fit, but recording stopped
        try await push("sample.bmp")
        #expect(try await recording.stop() == 0)
        let errors = recording.serve.standardError
        #expect(errors.contains("recording stopped: --record-max-bytes 8KB reached"), "\(errors)")
        #expect(errors.contains("recorded 1 push to \(corpus); 3 served after recording stopped"), "\(errors)")
        let total = Self.files(under: corpus).reduce(0) { sum, name in
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: corpus + "/" + name, isDirectory: &isFolder)
            let size = (try? FileManager.default.attributesOfItem(atPath: corpus + "/" + name)[.size] as? Int) ?? 0
            return sum + (isFolder.boolValue ? 0 : size)
        }
        #expect(total <= limit, "\(total) bytes in \(Self.files(under: corpus))")
        let images = Self.files(under: corpus + "/images")
        #expect(images.count == 1 && images[0].hasSuffix(".png"), "\(images)")
        let replayed = try await Self.replay([corpus], in: folder.path)
        #expect(replayed.status == 0 && replayed.stdout.contains("1 passed, 0 failed"), "\(replayed.stdout)")
    }

    @Test("a recording made under serve --image-key aps.alert.image (and other delivery options) replays rich")
    func deliveryOptionsInGiven() async throws {
        let folder = try TemporaryFolder()
        let corpus = folder.path + "/corpus"
        let recording = try await Recording(
            corpus, in: folder,
            ["--image-key", "aps.alert.image", "--download-timeout", "4s", "--extension-budget", "25s"])
        let body =
            #"{"aps":{"alert":{"title":"Key","body":"image","image":"https://fixtures.richpush.test/cat.png"},"mutable-content":1}}"#
        #expect(try await recording.curl(body: body) == "200")
        #expect(try await recording.stop() == 0)
        let expectation = try #require(Self.files(under: corpus).first { $0.hasSuffix(".expect.json") })
        let document = try JSONParser.parse(
            Array(try Data(contentsOf: URL(fileURLWithPath: corpus + "/" + expectation))))
        #expect(document["given"]?["imageKeys"] == ["aps.alert.image"])
        #expect(document["given"]?["downloadTimeout"] == "4s" && document["given"]?["extensionBudget"] == "25s")
        #expect(document["expect"]?["style"] == "rich")
        let replayed = try await Self.replay([corpus])
        #expect(replayed.status == 0, "\(replayed.stdout)\(replayed.stderr)")
        #expect(replayed.stdout.contains("PASS  background  rich") && replayed.stdout.contains("1 passed, 0 failed"))
    }

    @Test("files are 0600 and folders 0700; a folder of another user, or one others can write, is refused in one line")
    func permissions() async throws {
        let folder = try TemporaryFolder()
        let corpus = folder.path + "/corpus"
        let recording = try await Recording(corpus, in: folder, ["--record-images"])
        #expect(try await recording.push("payloads/rich/png-background.json").status == 0)
        #expect(try await recording.curl(token: "not-a-token", body: #"{"aps":{"alert":"x"}}"#) == "400")
        #expect(try await recording.stop() == 0)
        func mode(_ path: String) throws -> Int {
            (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? -1
        }
        #expect(try mode(corpus) == 0o700)
        let names = Self.files(under: corpus)
        #expect(names.contains(".salt") && names.contains("images") && names.contains("rejected"), "\(names)")
        #expect(names.filter { $0.hasSuffix(".json") }.count == 4, "\(names)")
        for name in names {
            let path = corpus + "/" + name
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
            #expect(try mode(path) == (isFolder.boolValue ? 0o700 : 0o600), "\(name)")
        }

        guard getuid() == 0 else { return }
        let foreign = folder.path + "/foreign"
        try FileManager.default.createDirectory(atPath: foreign, withIntermediateDirectories: false)
        let nobody = try #require(getpwnam("nobody")).pointee.pw_uid
        #expect(chown(foreign, nobody, nobody) == 0)
        let refused = try await Self.startServe(recordingInto: foreign)
        #expect(refused.status == 2)
        #expect(
            refused.stderr
                == "richpush serve: cannot record into \(foreign): it belongs to another user (uid \(nobody)); record into a folder of your own\n",
            "\(refused.stderr)")
        #expect(Self.files(under: foreign).isEmpty)

        let open = folder.path + "/open"
        try FileManager.default.createDirectory(atPath: open, withIntermediateDirectories: false)
        #expect(chmod(open, 0o777) == 0)
        let openRun = try await Self.startServe(recordingInto: open)
        #expect(openRun.status == 2)
        #expect(
            openRun.stderr
                == "richpush serve: cannot record into \(open): others can write in it (mode 777); record into a folder only you can write (chmod go-w)\n",
            "\(openRun.stderr)")
        #expect(Self.files(under: open).isEmpty)

        #expect(chmod(corpus + "/rejected", 0o777) == 0)
        let openSubfolder = try await Self.startServe(recordingInto: corpus)
        #expect(openSubfolder.status == 2 && openSubfolder.stderr.contains("\(corpus)/rejected: others can write"))
    }

    /// `richpush serve --record folder`, which must refuse to start; ended after 20 s (status 124) if it does not.
    static func startServe(recordingInto folder: String) async throws -> CommandRun {
        try await runExecutable(
            "/usr/bin/timeout", ["20", richpushBinary(), "serve", "--record", folder, "--listen", "127.0.0.1:0"])
    }

    /// The path a refused push was recorded with (`given.request.path`), the one recording in `corpus/rejected`.
    static func recordedPaths(in corpus: String) throws -> [String] {
        try files(under: corpus + "/rejected").filter { $0.hasSuffix(".expect.json") }.map { name in
            let document = try JSONParser.parse(
                Array(try Data(contentsOf: URL(fileURLWithPath: corpus + "/rejected/" + name))))
            return document["given"]?["request"]?["path"]?.stringValue ?? ""
        }
    }

    @Test(
        "each recording folder has its own salt: one token hashes two ways in two folders, one way in one; a mistyped path keeps no token"
    )
    func saltPerFolder() async throws {
        let folder = try TemporaryFolder()
        let short = String(testToken.dropLast(2))
        for name in ["one", "two", "one"] {
            let corpus = folder.path + "/" + name
            let recording = try await Recording(corpus, in: folder)
            #expect(try await recording.curl(token: short, body: #"{"aps":{"alert":"x"}}"#) == "400")
            #expect(try await recording.stop() == 0)
        }
        let one = try Self.recordedPaths(in: folder.path + "/one")
        let two = try Self.recordedPaths(in: folder.path + "/two")
        #expect(one.count == 2 && Set(one).count == 1, "the same folder hashes one token one way: \(one)")
        #expect(two.count == 1 && two[0] != one[0], "\(one) \(two)")
        #expect(!one[0].contains(short) && !two[0].contains(short))

        let corpus = folder.path + "/typo"
        let recording = try await Recording(corpus, in: folder)
        #expect(
            try await recording.curl(body: #"{"aps":{"alert":"x"}}"#, path: "/3/devices/\(testToken)?debug=1") == "404")
        #expect(try await recording.stop() == 0)
        let everything = Self.everyByte(under: corpus)
        #expect(everything.range(of: Data(testToken.utf8)) == nil, "the token of a mistyped path reached the disk")
        let replayed = try await Self.replay([corpus + "/rejected"])
        #expect(replayed.status == 0 && replayed.stdout.contains("1 passed, 0 failed"), "\(replayed.stdout)")
    }

    @Test(
        "a provider-token refusal is counted, not recorded, and the summary says how many; --record-auth-refusals records it"
    )
    func authRefusals() async throws {
        let folder = try TemporaryFolder()
        let corpus = folder.path + "/corpus"
        let recording = try await Recording(corpus, in: folder)
        #expect(try await recording.curl(body: #"{"aps":{"alert":"x"}}"#, authorization: "bearer not.a.jwt") == "403")
        #expect(try await recording.curl(body: #"{"aps":{"alert":"y"}}"#) == "200")
        #expect(try await recording.stop() == 0)
        #expect(Self.files(under: corpus + "/rejected").isEmpty)
        #expect(
            recording.serve.standardError.contains(
                "recorded 1 push to \(corpus); 1 provider-token refusal counted, not recorded (--record-auth-refusals records them)"
            ), "\(recording.serve.standardError)")

        let asked = try await Recording(corpus, in: folder, ["--record-auth-refusals"])
        #expect(try await asked.curl(body: #"{"aps":{"alert":"x"}}"#, authorization: "bearer not.a.jwt") == "403")
        #expect(try await asked.stop() == 0)
        #expect(Self.files(under: corpus + "/rejected").filter { $0.hasSuffix(".json") }.count == 2)
    }
}

/// How many answers had each HTTP status, counted from many tasks.
final class StatusCounts: Sendable {
    private let state = Mutex<[Int: Int]>([:])
    func count(_ status: Int) { state.withLock { $0[status, default: 0] += 1 } }
    var counts: [Int: Int] { state.withLock { $0 } }
}
