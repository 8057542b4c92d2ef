import Foundation
import RichPushTestSupport
import Testing

/// A team's own extension, built by the real compiler and run by `richpush replay --extension` in its own process
/// against the embedded fixture CDN: what a user sees in the result when the extension crashes, eats memory, calls
/// its handler twice or never, and what it can reach.
@Suite("A team's own extension runs in a process of its own, under iOS's rules")
struct ExtensionProcessTests {
    /// Built extensions are shared by the tests of one run (the key is the sources), kept out of the user's cache.
    static let cache = FileManager.default.temporaryDirectory.path + "/richpush-tests-extension-cache"

    /// Builds `source` as an extension's NotificationService.swift and replays one payload through it; returns the
    /// run and its one JSON result.
    func replay(
        _ source: String, image: String = "https://fixtures.richpush.test/cat.png", given: String = "",
        arguments: [String] = []
    ) async throws -> (run: CommandRun, result: [String: Any]) {
        let folder = try TemporaryFolder()
        _ = try folder.write("ext/NotificationService.swift", source)
        _ = try folder.write(
            "payloads/push.json",
            #"{"aps":{"alert":{"title":"Original title","body":"Original body"},"mutable-content":1},"fcm_options":{"image":"\#(image)"}}"#
        )
        _ = try folder.write(
            "payloads/push.expect.json",
            #"{"given":{"appState":"background"\#(given.isEmpty ? "" : ", " + given)},"expect":{"delivered":true}}"#)
        let run = try await runExecutable(
            richpushBinary(),
            ["replay", folder.path + "/payloads", "--extension", folder.path + "/ext", "--format", "json"] + arguments,
            environment: ["XDG_CACHE_HOME": Self.cache])
        let results = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]]
        let result = try #require(results?.first, "no result: \(run.stderr)")
        return (run, result)
    }

    func events(_ result: [String: Any]) -> [(event: String, detail: String)] {
        (result["timeline"] as? [[String: Any]] ?? []).map {
            ($0["event"] as? String ?? "", $0["detail"] as? String ?? "")
        }
    }

    func reason(_ result: [String: Any]) -> String? {
        (result["fallback"] as? [String: Any])?["reason"] as? String
    }

    @Test("a crash before the content handler: the original content, extensionCrashed, the signal and its last words")
    func crash() async throws {
        let (_, result) = try await replay(
            """
            import UserNotifications
            class NotificationService: UNNotificationServiceExtension {
                override func didReceive(_ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void) {
                    let missing: String? = request.content.userInfo["nothing"] as? String
                    print("about to unwrap")
                    contentHandler(request.content.mutableCopy() as! UNMutableNotificationContent)
                    _ = missing!.count
                }
            }
            """)
        // The handler was called before the crash: the content stands.
        #expect(result["contentHandlerCalls"] as? Int == 1)
        #expect(reason(result) == nil)

        let (_, crashed) = try await replay(
            """
            import UserNotifications
            class NotificationService: UNNotificationServiceExtension {
                override func didReceive(_ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void) {
                    let missing: String? = request.content.userInfo["nothing"] as? String
                    print("about to unwrap")
                    let content = request.content.mutableCopy() as! UNMutableNotificationContent
                    content.title = missing!
                    contentHandler(content)
                }
            }
            """)
        #expect(reason(crashed) == "extensionCrashed")
        let detail = (crashed["fallback"] as? [String: Any])?["detail"] as? String ?? ""
        #expect(detail.contains("signal") && detail.contains("Fatal error"), "\(detail)")
        #expect(crashed["title"] as? String == "Original title")
        #expect(crashed["style"] as? String == "plain")
        #expect(crashed["contentHandlerCalls"] as? Int == 0)
        #expect((crashed["extensionLog"] as? [String])?.contains("about to unwrap") == true)
    }

    static let hungry = """
        import UserNotifications
        class NotificationService: UNNotificationServiceExtension {
            var kept: [[UInt8]] = []
            override func didReceive(_ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void) {
                for _ in 0..<15 { kept.append([UInt8](repeating: 7, count: 4_000_000)) }
                print("holding \\(kept.count * 4) MB")
                DispatchQueue.main.asyncAfter(deadline: .now() + 1) { contentHandler(request.content) }
            }
        }
        """

    @Test("a footprint past --extension-memory ends the process: extensionMemoryLimit, long before the budget")
    func memory() async throws {
        let (_, result) = try await replay(Self.hungry, given: #""extensionBudget": "20s""#)
        #expect(reason(result) == "extensionMemoryLimit", "\(result["fallback"] ?? "")")
        #expect((result["elapsed"] as? Double ?? 99) < 5)
        #expect(result["contentHandlerCalls"] as? Int == 0)

        // The same extension under a higher limit is left alone.
        let (_, allowed) = try await replay(
            Self.hungry, given: #""extensionBudget": "20s""#, arguments: ["--extension-memory", "200MB"])
        #expect(reason(allowed) == nil)
        #expect(allowed["contentHandlerCalls"] as? Int == 1)

        // A payload's own given.extensionMemory (as serve --record writes the run's) is its limit.
        let (_, ownLimit) = try await replay(
            Self.hungry, given: #""extensionBudget": "20s", "extensionMemory": "200MB""#)
        #expect(reason(ownLimit) == nil, "\(ownLimit["fallback"] ?? "")")
        #expect(ownLimit["contentHandlerCalls"] as? Int == 1)
    }

    @Test("a second content handler call is counted and ignored: the first one's content is shown")
    func doubleCall() async throws {
        let (_, result) = try await replay(
            """
            import UserNotifications
            class NotificationService: UNNotificationServiceExtension {
                override func didReceive(_ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void) {
                    let first = request.content.mutableCopy() as! UNMutableNotificationContent
                    first.title = "first"
                    contentHandler(first)
                    let second = request.content.mutableCopy() as! UNMutableNotificationContent
                    second.title = "second"
                    contentHandler(second)
                }
            }
            """)
        #expect(result["contentHandlerCalls"] as? Int == 2)
        #expect(result["title"] as? String == "first")
        #expect(events(result).contains { $0.event == "duplicateCompletionIgnored" })
    }

    @Test("an extension that blocks after its content handler is ended by the system, not waited for")
    func blockedAfterHandler() async throws {
        let (_, result) = try await replay(
            """
            import UserNotifications
            class NotificationService: UNNotificationServiceExtension {
                override func didReceive(_ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void) {
                    contentHandler(request.content)
                    while true { usleep(1000) }
                }
            }
            """)
        #expect(result["contentHandlerCalls"] as? Int == 1)
        #expect(reason(result) == nil)
        // When the process ended, on the delivery's own clock (the build before it is not counted, so a busy
        // machine does not matter): about 1 s after the handler, not at the end of the 30 s budget.
        let timeline = result["timeline"] as? [[String: Any]] ?? []
        func at(_ event: String) -> Double? {
            timeline.first { $0["event"] as? String == event }?["at"] as? Double
        }
        let handled = try #require(at("contentHandlerCalled"), "no contentHandlerCalled in \(timeline)")
        let ended = try #require(at("extensionEnded"), "no extensionEnded in \(timeline)")
        #expect(ended - handled < 10, "the process was waited for \(ended - handled) s after its handler")
    }

    @Test("a handler never called: timeWillExpire, the grace, SIGKILL, the original content")
    func neverCalled() async throws {
        let (_, result) = try await replay(
            """
            import UserNotifications
            class NotificationService: UNNotificationServiceExtension {
                override func didReceive(_ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void) {
                    print("waiting for nothing")
                }
                override func serviceExtensionTimeWillExpire() {
                    print("told the time is up")
                }
            }
            """, given: #""extensionBudget": "1s""#)
        #expect(reason(result) == "contentHandlerNeverCalled")
        #expect(result["title"] as? String == "Original title")
        #expect(events(result).contains { $0.event == "timeWillExpire" })
        #expect((result["extensionLog"] as? [String])?.contains("told the time is up") == true)
        let elapsed = result["elapsed"] as? Double ?? 0
        #expect(elapsed >= 1 && elapsed < 10, "budget 1 s and grace 1 s, then ended: \(elapsed) s")
    }

    @Test("serviceExtensionTimeWillExpire's content is presented, as extensionExpired")
    func expiredDelivery() async throws {
        let (_, result) = try await replay(
            """
            import UserNotifications
            class NotificationService: UNNotificationServiceExtension {
                var handler: ((UNNotificationContent) -> Void)?
                var best: UNMutableNotificationContent?
                override func didReceive(_ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void) {
                    handler = contentHandler
                    best = request.content.mutableCopy() as? UNMutableNotificationContent
                    best?.title = "best attempt"
                }
                override func serviceExtensionTimeWillExpire() {
                    if let handler = handler, let best = best { handler(best) }
                }
            }
            """, given: #""extensionBudget": "1s""#)
        #expect(reason(result) == "extensionExpired")
        #expect(result["title"] as? String == "best attempt")
        #expect(result["contentHandlerCalls"] as? Int == 1)
    }

    @Test(
        "the extension's own URLSession reaches the fixture CDN, each request in the timeline; http:// reaches nothing")
    func network() async throws {
        let source = """
            import UserNotifications
            class NotificationService: UNNotificationServiceExtension {
                override func didReceive(_ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void) {
                    let url = URL(string: (request.content.userInfo["fcm_options"] as! [String: Any])["image"] as! String)!
                    URLSession.shared.dataTask(with: url) { data, response, error in
                        print("status \\((response as? HTTPURLResponse)?.statusCode ?? 0) bytes \\(data?.count ?? 0) error \\(error != nil)")
                        contentHandler(request.content)
                    }.resume()
                }
            }
            """
        let (_, fetched) = try await replay(source, image: "https://fixtures.richpush.test/cat.png?status=404")
        let requests = events(fetched).filter { $0.event == "extensionRequest" }.map(\.detail)
        #expect(
            requests.contains { $0.hasPrefix("GET https://fixtures.richpush.test/cat.png?status=404 → 404") },
            "\(requests)")
        #expect((fetched["extensionLog"] as? [String])?.contains { $0.hasPrefix("status 404") } == true)

        let (_, refused) = try await replay(source, image: "http://fixtures.richpush.test/cat.png")
        let refusals = events(refused).filter { $0.event == "extensionRequest" }.map(\.detail)
        #expect(refusals.contains { $0.contains("refused: App Transport Security") }, "\(refusals)")
        #expect((refused["extensionLog"] as? [String])?.contains { $0.hasSuffix("error true") } == true)
    }

    @Test("what the extension prints while it starts (in its init) is in the first notification's log")
    func initLog() async throws {
        let (run, result) = try await replay(
            """
            import UserNotifications
            class NotificationService: UNNotificationServiceExtension {
                override init() {
                    print("made")
                    super.init()
                }
                override func didReceive(_ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void) {
                    print("received")
                    contentHandler(request.content)
                }
            }
            """)
        #expect(result["extensionLog"] as? [String] == ["made", "received"], "\(result) \(run.stderr)")
    }

    @Test(
        "UserDefaults' key-value coding, as iOS's Foundation has it: setValue(_:forKey:) stores, value(forKey:) reads")
    func userDefaultsKeyValueCoding() async throws {
        let (run, result) = try await replay(
            """
            import Foundation
            import UserNotifications
            class NotificationService: UNNotificationServiceExtension {
                override func didReceive(_ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void) {
                    let shared = UserDefaults(suiteName: "group.com.example.app")!
                    shared.setValue(41, forKey: "badgeCount")
                    print("count \\(shared.integer(forKey: "badgeCount") + 1), read back \\(shared.value(forKey: "badgeCount") as? Int ?? -1)")
                    contentHandler(request.content)
                }
            }
            """)
        #expect(result["extensionLog"] as? [String] == ["count 42, read back 41"], "\(result) \(run.stderr)")
    }

    @Test("NSAttributedString.Key.link, as iOS's Foundation has it: a link set on text is read back")
    func attributedStringLink() async throws {
        let (run, result) = try await replay(
            """
            import Foundation
            import UserNotifications
            class NotificationService: UNNotificationServiceExtension {
                override func didReceive(_ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void) {
                    let text = NSMutableAttributedString(string: "Read more")
                    text.addAttribute(.link, value: URL(string: "https://example.com/post")!, range: NSRange(location: 0, length: 4))
                    var links: [String] = []
                    text.enumerateAttribute(.link, in: NSRange(location: 0, length: text.length)) { value, range, _ in
                        if let url = value as? URL { links.append("\\(url.absoluteString) at \\(range.location)+\\(range.length)") }
                    }
                    print("\\(NSAttributedString.Key.link.rawValue): \\(links.joined(separator: ", "))")
                    contentHandler(request.content)
                }
            }
            """)
        #expect(
            result["extensionLog"] as? [String] == ["NSLink: https://example.com/post at 0+4"],
            "\(result) \(run.stderr)")
    }

    @Test(
        "an FCM v1 message reaches the extension as iOS gets it: the translated content, the APNs payload as userInfo")
    func fcmMessage() async throws {
        let folder = try TemporaryFolder()
        _ = try folder.write(
            "ext/NotificationService.swift",
            """
            import UserNotifications
            class NotificationService: UNNotificationServiceExtension {
                override func didReceive(_ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void) {
                    let aps = request.content.userInfo["aps"] as? [String: Any]
                    print("title \\(request.content.title), aps \\(aps != nil), message key \\(request.content.userInfo["message"] != nil)")
                    contentHandler(request.content)
                }
            }
            """)
        _ = try folder.write(
            "payloads/fcm.json",
            #"{"message":{"token":"t","notification":{"title":"From FCM","body":"b"},"apns":{"payload":{"aps":{"mutable-content":1}}}}}"#
        )
        let run = try await runExecutable(
            richpushBinary(),
            ["replay", folder.path + "/payloads", "--extension", folder.path + "/ext", "--format", "json"],
            environment: ["XDG_CACHE_HOME": Self.cache])
        let results = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
        let log = results.first?["extensionLog"] as? [String] ?? []
        #expect(log == ["title From FCM, aps true, message key false"], "\(log) \(run.stderr)")
    }

    @Test("an attachment the process claims outside its store is refused, and the file is left where it is")
    func forgedAttachment() async throws {
        let outside = try TemporaryFolder()
        let secret = try outside.write("secret.png", "not yours")
        let (_, result) = try await replay(
            """
            import UserNotifications
            class NotificationService: UNNotificationServiceExtension {
                override func didReceive(_ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void) {
                    let store = ProcessInfo.processInfo.environment["RICHPUSH_ATTACHMENT_STORE"]!
                    for file in ["\(secret)", store + "/../../../../../..\(secret)"] {
                        RichPushHostChannel.send([
                            "event": "contentHandler", "id": request.identifier, "call": 1,
                            "content": [
                                "title": "forged", "attachments": [["identifier": "", "file": file, "type": "public.png"]],
                            ],
                        ])
                    }
                }
            }
            """)
        #expect(result["attachment"] is NSNull)
        #expect(result["style"] as? String == "plain")
        let rejected = events(result).filter { $0.event == "attachmentRejected" }.map(\.detail)
        #expect(rejected.contains { $0.contains("attachmentNotInDataStore") }, "\(events(result))")
        #expect(FileManager.default.fileExists(atPath: secret), "the file outside the store was moved or removed")
    }

    @Test("each notification gets empty container folders of its own")
    func containers() async throws {
        let folder = try TemporaryFolder()
        _ = try folder.write(
            "ext/NotificationService.swift",
            """
            import UserNotifications
            class NotificationService: UNNotificationServiceExtension {
                override func didReceive(_ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void) {
                    let marker = FileManager.default.temporaryDirectory.appendingPathComponent("marker")
                    let group = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: "group.example")!
                        .appendingPathComponent("marker")
                    print("temporary marker \\(FileManager.default.fileExists(atPath: marker.path)), group marker \\(FileManager.default.fileExists(atPath: group.path))")
                    try? Data("x".utf8).write(to: marker)
                    try? Data("x".utf8).write(to: group)
                    contentHandler(request.content)
                }
            }
            """)
        for name in ["a", "b", "c"] {
            _ = try folder.write("payloads/\(name).json", #"{"aps":{"alert":"\#(name)","mutable-content":1}}"#)
        }
        let run = try await runExecutable(
            richpushBinary(),
            [
                "replay", folder.path + "/payloads", "--extension", folder.path + "/ext", "--format", "json", "--jobs",
                "1",
            ],
            environment: ["XDG_CACHE_HOME": Self.cache])
        let results = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
        #expect(results.count == 3)
        for result in results {
            #expect(result["extensionLog"] as? [String] == ["temporary marker false, group marker false"])
        }
    }

    @Test("an extension that does not build is one error naming the user's file and what richpush does not provide")
    func buildFailure() async throws {
        let folder = try TemporaryFolder()
        let file = try folder.write(
            "ext/NotificationService.swift",
            """
            import CallKit
            import UserNotifications
            class NotificationService: UNNotificationServiceExtension {}
            """)
        _ = try folder.write("payloads/a.json", #"{"aps":{"alert":"a","mutable-content":1}}"#)
        _ = try folder.write("payloads/b.json", #"{"aps":{"alert":"b","mutable-content":1}}"#)
        let run = try await runExecutable(
            richpushBinary(), ["replay", folder.path + "/payloads", "--extension", folder.path + "/ext"],
            environment: ["XDG_CACHE_HOME": Self.cache])
        #expect(run.status == 2)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.contains(file), "\(run.stderr)")
        #expect(run.stderr.contains("import CallKit: Apple's CallKit is not provided"), "\(run.stderr)")
        #expect(run.stderr.components(separatedBy: "does not build").count == 2)
    }

    @Test("--sdk all with --extension: the team's extension is a column beside the SDKs, checked against expect")
    func matrixColumn() async throws {
        let run = try await runExecutable(
            richpushBinary(),
            ["replay", "payloads/extensions/naive", "--extension", "examples/extensions/naive", "--sdk", "all"],
            environment: ["XDG_CACHE_HOME": Self.cache])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let lines = run.stdout.split(separator: "\n")
        let header = try #require(lines.first { $0.hasPrefix("payload") })
        #expect(header.hasSuffix("extension"))
        let row = try #require(lines.first { $0.contains("not-found-404.json") })
        // The requirement's extension checks the status; the naive one attaches the 404 page, which iOS refuses.
        #expect(row.contains("httpStatus") && row.hasSuffix("attachmentRejected"), "\(row)")
        #expect(run.stdout.contains("7 passed, 0 failed"))
    }

    @Test("import os.log and MobileCoreServices build and log as Apple's do")
    func osLog() async throws {
        let (_, result) = try await replay(
            """
            import UserNotifications
            import MobileCoreServices
            import os.log

            class NotificationService: UNNotificationServiceExtension {
                override func didReceive(_ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void) {
                    let log = OSLog(subsystem: "com.example.nse", category: "rich")
                    os_log("hint %{public}@", log: log, type: .error, kUTTypeJPEG as String)
                    contentHandler(request.content)
                }
            }
            """)
        let log = result["extensionLog"] as? [String] ?? []
        #expect(log.contains { $0.contains("com.example.nse:rich") && $0.contains("hint public.jpeg") }, "\(log)")
    }

    @Test("extension check builds once: unchanged sources are not rebuilt, a change is")
    func cache() async throws {
        let folder = try TemporaryFolder()
        let cache = try TemporaryFolder()
        let source = """
            import UserNotifications
            class Checked: UNNotificationServiceExtension {}
            """
        _ = try folder.write("NotificationService.swift", source)
        let first = try await runExecutable(
            richpushBinary(), ["extension", "check", folder.path], environment: ["XDG_CACHE_HOME": cache.path])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("principal class Checked") && !first.stdout.contains("unchanged"))
        let second = try await runExecutable(
            richpushBinary(), ["extension", "check", folder.path], environment: ["XDG_CACHE_HOME": cache.path])
        #expect(second.stdout.contains("unchanged since the last build"), "\(second.stdout)")
        _ = try folder.write("NotificationService.swift", source + "\n// changed\n")
        let third = try await runExecutable(
            richpushBinary(), ["extension", "check", folder.path], environment: ["XDG_CACHE_HOME": cache.path])
        #expect(third.status == 0 && !third.stdout.contains("unchanged"), "\(third.stdout)")
    }
}
