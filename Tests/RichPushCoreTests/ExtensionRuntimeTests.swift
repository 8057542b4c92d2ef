import Clocks
import Foundation
import RichPushCore
import Synchronization
import Testing

/// The structured extension runtime: per-payload settings, cancellation, and files that lose a race.
@Suite struct ExtensionRuntimeTests {
    static let imagePayload = #"""
        {"aps": {"alert": {"title": "New arrivals", "body": "Tap to see"}, "mutable-content": 1},
         "fcm_options": {"image": "https://fixtures.richpush.test/cat.png"}}
        """#

    static func pointing(at image: String) -> String {
        #"{"aps": {"alert": "x", "mutable-content": 1}, "fcm_options": {"image": "\#(image)"}}"#
    }

    @Test(arguments: [
        ("file:///etc/passwd", FallbackReason.insecureURL, "file:// image URLs are refused"),
        ("data:image/png;base64,iVBORw0KGgo=", .insecureURL, "data: image URLs are refused"),
        ("javascript:alert(1)", .insecureURL, "javascript: image URLs are refused"),
        ("ftp://example.com/cat.png", .insecureURL, "ftp:// image URLs are refused"),
        ("https://example.com:99999/cat.png", .invalidURL, "port 99999 is out of range"),
        ("cat.png", .invalidURL, "is not an absolute URL"),
    ])
    func urlsThatAreNotDownloadableSayWhy(url: String, reason: FallbackReason, detail: String) async {
        let downloader = ScriptedDownloader { _, _, _ in throw DownloadFailure(.networkError, "must not be called") }
        let result = await NotificationSystem(downloader: downloader).deliver(
            .file("u.json", bytes: payload(Self.pointing(at: url)), appState: .background))
        #expect(result.fallback?.reason == reason)
        #expect(result.fallback?.detail.contains(detail) == true, "\(result.fallback?.detail ?? "")")
        #expect(!result.events.contains(.downloadStarted))
    }

    @Test func perPayloadSettingsAreAppliedByTheSystemAndReportedAsLimits() async throws {
        let clock = ArmedTestClock()
        let heard = Mutex<[DeliveryProgress]>([])
        let system = NotificationSystem(
            downloader: ScriptedDownloader.hanging(on: clock), clock: clock,
            configuration: DeliveryConfiguration(downloadTimeout: .seconds(60)))
        let settings = DeliveryOverrides(extensionBudget: .seconds(1), downloadMaxBytes: 20 * 1024 * 1024)
        let result = await driving(clock) {
            await system.deliver(
                .file("expire.json", bytes: payload(Self.imagePayload), appState: .background, settings: settings)
            ) { progress in heard.withLock { $0.append(progress) } }
        }
        #expect(result.fallback?.reason == .extensionExpired)
        #expect(result.fallback?.detail.contains("within 1 s") == true)
        #expect(result.time(of: .timeWillExpire) == 1)
        let limits = EffectiveLimits(
            downloadTimeout: .seconds(60), extensionBudget: .seconds(1), downloadMaxBytes: 20 * 1024 * 1024,
            attachmentMaxBytes: 10 * 1024 * 1024)
        #expect(result.limits == limits)
        #expect(heard.withLock { $0.first } == .limits(limits), "front ends learn the limits before anything else")
        let json = try #require(result.jsonValue["limits"])
        #expect(json["extensionBudget"] == 1)
        #expect(json["downloadTimeout"] == 60)
        #expect(json["downloadMaxBytes"] == .number(Double(20 * 1024 * 1024)))
        #expect(json["maxImageBytes"] == json["downloadMaxBytes"], "the contract's first name stays")
    }

    @Test func everythingThePayloadSaidIsReported() async throws {
        let json = #"""
            {"aps": {"alert": {"title": "T", "body": "B"}, "badge": 3, "sound": "chime.caf", "thread-id": "chat-7",
             "category": "REPLY", "interruption-level": "time-sensitive", "relevance-score": 0.75,
             "target-content-id": "room-1"}}
            """#
        let result = await NotificationSystem(downloader: ScriptedDownloader.succeeding()).deliver(
            .file("a.json", bytes: payload(json), appState: .background))
        #expect(result.badge == 3)
        #expect(result.threadID == "chat-7")
        let object = result.jsonValue
        #expect(object["badge"] == 3)
        #expect(object["sound"] == "chime.caf")
        #expect(object["threadID"] == "chat-7")
        #expect(object["category"] == "REPLY")
        #expect(object["interruptionLevel"] == "time-sensitive")
        #expect(object["relevanceScore"] == 0.75)
        #expect(object["targetContentID"] == "room-1")

        let bare = await NotificationSystem(downloader: ScriptedDownloader.succeeding()).deliver(
            .file("b.json", bytes: payload(#"{"aps": {"alert": "x"}}"#), appState: .background))
        #expect(bare.jsonValue["badge"] == .null)
        #expect(bare.jsonValue["transport"] == "file", "a payload file, not a network push")
        #expect(bare.jsonValue["apns"] == .null)
        #expect(bare.jsonValue["threadID"] == .null)
    }

    @Test func cancellingADeliveryCancelsItsDownloadAndTimers() async {
        let clock = ArmedTestClock()
        let started = Atomic<Bool>(false)
        let cancelled = Atomic<Bool>(false)
        let downloader = ScriptedDownloader { _, _, _ in
            started.store(true, ordering: .releasing)
            do {
                try await clock.sleep(for: .seconds(3600))
            } catch {
                cancelled.store(true, ordering: .releasing)
                throw error
            }
            throw DownloadFailure(.networkError, "unreachable")
        }
        let system = NotificationSystem(downloader: downloader, clock: clock)
        let delivery = Task {
            await system.deliver(.file("quit.json", bytes: payload(Self.imagePayload), appState: .background))
        }
        // Download, its deadline and the budget: three sleeps on the test clock, then the person quits.
        while !clock.isArmed(3) { await Task.yield() }
        delivery.cancel()
        let result = await delivery.value
        let downloadStarted = started.load(ordering: .acquiring)
        let downloadCancelled = cancelled.load(ordering: .acquiring)
        #expect(downloadStarted)
        #expect(downloadCancelled)
        #expect(clock.isArmed(0), "no timer outlives the cancelled delivery")
        #expect(result.style == .plain)
        #expect(result.attachment == nil)
        #expect(result.events.filter { $0 == .contentHandlerCalled }.count == 1)
    }

    @Test func aFileThatArrivesAfterTheDeadlineIsDiscarded() async {
        let clock = ArmedTestClock()
        // Ignores cancellation and hands over a file at 6 s, after the 5 s deadline.
        let downloader = ScriptedDownloader { _, _, _ in
            try? await clock.sleep(for: .seconds(6))
            return DownloadedImage(
                file: URL(fileURLWithPath: "/tmp/too-late.png"), format: .png, width: 1, height: 1, frames: 1,
                bytes: 10, sha256: "", servedContentType: "image/png")
        }
        let system = NotificationSystem(downloader: downloader, clock: clock)
        let result = await driving(clock) {
            await system.deliver(.file("late.json", bytes: payload(Self.imagePayload), appState: .background))
        }
        #expect(result.fallback?.reason == .timeout)
        #expect(result.attachment == nil)
        #expect(downloader.discarded.all == [URL(fileURLWithPath: "/tmp/too-late.png")])
    }

    @Test func aDownloaderThatEnforcesItsOwnTimeoutIsNotRacedAgainstAnotherTimer() async {
        let clock = ArmedTestClock()
        // Claims to end by the deadline itself, and hands over a file at 6 s: the runtime, trusting the claim,
        // runs no 5 s timer of its own beside it (HTTPSImageDownloader's deadline is tested against the CDN).
        var downloader = ScriptedDownloader { _, _, _ in
            try await clock.sleep(for: .seconds(6))
            return DownloadedImage(
                file: URL(fileURLWithPath: "/tmp/in-time-by-its-own-clock.png"), format: .png, width: 1, height: 1,
                frames: 1, bytes: 10, sha256: "", servedContentType: "image/png")
        }
        downloader.enforcesTimeout = true
        let system = NotificationSystem(downloader: downloader, clock: clock)
        // Two sleeps move time on: the budget's and the downloader's (the runtime's own would be a third).
        let result = await driving(clock, armed: 2) {
            await system.deliver(.file("own.json", bytes: payload(Self.imagePayload), appState: .background))
        }
        #expect(result.fallback == nil, "\(String(describing: result.fallback))")
        #expect(result.attachment?.file == "/tmp/in-time-by-its-own-clock.png")
        #expect(downloader.discarded.all.isEmpty)
    }

    @Test func anAttachmentIOSRefusesHasItsFileDiscarded() async {
        let downloader = ScriptedDownloader.succeeding(bytes: 11 * 1024 * 1024)
        let result = await NotificationSystem(
            downloader: downloader, configuration: DeliveryConfiguration(downloadMaxBytes: 20 * 1024 * 1024)
        ).deliver(.file("big.json", bytes: payload(Self.imagePayload), appState: .background))
        #expect(result.fallback?.reason == .attachmentRejected)
        #expect(downloader.discarded.all.count == 1)
    }

    @Test func theTimelineIsInOrderWhateverThreadRecordsIt() async {
        // Progress callbacks arrive from network threads while the session records its own steps.
        let downloader = ScriptedDownloader { _, _, events in
            await withTaskGroup(of: Void.self) { group in
                for index in 0..<200 { group.addTask { events(.bytesReceived(index)) } }
                for _ in 0..<50 {
                    group.addTask { events(.redirect(URL(fileURLWithPath: "/r"))) }
                }
            }
            throw DownloadFailure(.httpStatus, "HTTP 404")
        }
        let result = await NotificationSystem(downloader: downloader).deliver(
            .file("o.json", bytes: payload(Self.imagePayload), appState: .background))
        let times = result.timeline.map(\.at)
        #expect(times == times.sorted())
        #expect(result.events.filter { $0 == .redirect }.count == 50)
    }
}
