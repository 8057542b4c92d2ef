import Foundation
import RichPushCore
import RichPushTestSupport
import Testing

/// What a team's extension cannot game, and what it sets that comes back: a second hello does not reset the memory
/// baseline, a flood on the events channel does not grow richpush, every field of the content reaches the result.
extension ExtensionProcessTests {
    @Test("an extension that greets again after each 15 MB ends as extensionMemoryLimit, naming the second hello")
    func secondHello() async throws {
        let (_, result) = try await replay(
            """
            import UserNotifications
            import Glibc
            class NotificationService: UNNotificationServiceExtension {
                var kept: [[UInt8]] = []
                override func didReceive(_ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void) {
                    let events = Int32(ProcessInfo.processInfo.environment["RICHPUSH_EVENTS_FD"] ?? "") ?? -1
                    for _ in 0..<3 {
                        kept.append([UInt8](repeating: 7, count: 15_000_000))
                        let hello = "{\\"event\\":\\"hello\\",\\"protocolVersion\\":\(HostProtocol.version)}\\n"
                        _ = hello.withCString { write(events, $0, strlen($0)) }
                        usleep(300_000)
                    }
                    contentHandler(request.content)
                }
            }
            """, given: #""extensionBudget": "20s""#)
        #expect(reason(result) == "extensionMemoryLimit", "\(result["fallback"] ?? "")")
        let detail = (result["fallback"] as? [String: Any])?["detail"] as? String ?? ""
        #expect(detail.contains("said hello again"), "\(detail)")
        #expect(result["contentHandlerCalls"] as? Int == 0)
    }

    @Test("an extension flooding its events channel leaves richpush's memory alone, and its notification still ends")
    func eventFlood() async throws {
        let flood = """
            import UserNotifications
            import Glibc
            class NotificationService: UNNotificationServiceExtension {
                override func didReceive(_ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void) {
                    let events = Int32(ProcessInfo.processInfo.environment["RICHPUSH_EVENTS_FD"] ?? "") ?? -1
                    let line = "{\\"event\\":\\"frameworkNote\\",\\"framework\\":\\"Flood\\",\\"detail\\":\\"\\(String(repeating: "x", count: 200))\\"}\\n"
                    let block = String(repeating: line, count: 1_000)
                    Thread.detachNewThread {
                        while true { _ = block.withCString { write(events, $0, strlen($0)) } }
                    }
                }
            }
            """
        let quiet = """
            import UserNotifications
            class NotificationService: UNNotificationServiceExtension {
                override func didReceive(_ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void) {}
            }
            """
        // richpush's own peak resident memory, measured by the kernel for the replay alone.
        func peak(_ source: String) async throws -> (kilobytes: Int, result: [String: Any]) {
            let folder = try TemporaryFolder()
            _ = try folder.write("ext/NotificationService.swift", source)
            _ = try folder.write(
                "payloads/push.json", #"{"aps":{"alert":{"title":"T","body":"B"},"mutable-content":1}}"#)
            _ = try folder.write("payloads/push.expect.json", #"{"given":{"extensionBudget":"1s"}}"#)
            // Built first: the compiler's memory is not richpush's.
            let check = try await runExecutable(
                richpushBinary(), ["extension", "check", folder.path + "/ext"],
                environment: ["XDG_CACHE_HOME": Self.cache])
            #expect(check.status == 0, "\(check.stderr)")
            let script = """
                import json, resource, subprocess, sys
                run = subprocess.run(sys.argv[1:], capture_output=True, text=True)
                print(json.dumps({"peak": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, "stdout": run.stdout, "stderr": run.stderr}))
                """
            let run = try await runExecutable(
                "/usr/bin/env",
                [
                    "python3", "-c", script, richpushBinary(), "replay", folder.path + "/payloads", "--extension",
                    folder.path + "/ext", "--format", "json",
                ], environment: ["XDG_CACHE_HOME": Self.cache])
            let measured = try #require(
                try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(run.stderr)")
            let results = try JSONSerialization.jsonObject(with: Data((measured["stdout"] as? String ?? "").utf8))
            let result = try #require((results as? [[String: Any]])?.first, "\(measured["stderr"] ?? "")")
            return (measured["peak"] as? Int ?? 0, result)
        }
        let (quietPeak, _) = try await peak(quiet)
        let (floodPeak, flooded) = try await peak(flood)
        #expect(reason(flooded) == "contentHandlerNeverCalled", "\(flooded["fallback"] ?? "")")
        #expect(floodPeak - quietPeak < 32 * 1024, "peak \(floodPeak) KB flooded, \(quietPeak) KB quiet")
        let notes = events(flooded).filter { $0.event == "frameworkNote" }.count
        #expect(notes == HostProtocol.maxEventsPerNotification, "\(notes) notes kept")
        #expect((flooded["extensionLog"] as? [String])?.last?.contains("more events not kept") == true)
    }

    @Test("every field an extension sets on the content comes back in deliveredContent")
    func everyFieldDelivered() async throws {
        let (_, result) = try await replay(
            """
            import UserNotifications
            class NotificationService: UNNotificationServiceExtension {
                override func didReceive(_ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void) {
                    let content = request.content.mutableCopy() as! UNMutableNotificationContent
                    content.title = "Set title"
                    content.subtitle = "Set subtitle"
                    content.body = "Set body"
                    content.badge = 9
                    content.sound = UNNotificationSound.defaultCriticalSound(withAudioVolume: 0.25)
                    content.threadIdentifier = "set-thread"
                    content.categoryIdentifier = "set-category"
                    content.targetContentIdentifier = "set-target"
                    content.interruptionLevel = .timeSensitive
                    content.relevanceScore = 0.75
                    content.filterCriteria = "set-filter"
                    content.summaryArgument = "set-summary"
                    content.summaryArgumentCount = 3
                    content.launchImageName = "set-launch"
                    contentHandler(content)
                }
            }
            """)
        let delivered = try #require(result["deliveredContent"] as? [String: Any], "\(result)")
        let expected: [String: Any] = [
            "title": "Set title", "subtitle": "Set subtitle", "body": "Set body", "badge": 9, "sound": "default",
            "threadID": "set-thread", "category": "set-category", "targetContentID": "set-target",
            "interruptionLevel": "time-sensitive", "relevanceScore": 0.75, "filterCriteria": "set-filter",
            "summaryArgument": "set-summary", "summaryArgumentCount": 3, "launchImageName": "set-launch",
        ]
        for (key, value) in expected {
            #expect("\(delivered[key] ?? "missing")" == "\(value)", "\(key)")
        }
        #expect((delivered["criticalSound"] as? [String: Any])?["volume"] as? Double == 0.25)
    }
}
