import Clocks
import Foundation
import RichPushCore
import Synchronization
import Testing

@Suite struct NotificationSystemTests {
    static let imagePayload = #"""
        {"aps": {"alert": {"title": "New arrivals", "body": "Tap to see"}, "mutable-content": 1},
         "fcm_options": {"image": "https://fixtures.richpush.test/cat.png"}, "push_id": "p-7"}
        """#

    func deliver(
        _ json: String, state: AppState = .background, downloader: ScriptedDownloader = .succeeding(),
        configuration: DeliveryConfiguration = DeliveryConfiguration()
    ) async -> DeliveryResult {
        let system = NotificationSystem(downloader: downloader, configuration: configuration)
        return await system.deliver(.file("p.json", bytes: payload(json), appState: state))
    }

    @Test(arguments: [AppState.background, .closed])
    func anImageInBackgroundOrClosedIsShownRich(state: AppState) async {
        let result = await deliver(Self.imagePayload, state: state)
        #expect(result.style == .rich)
        #expect(result.delivered)
        #expect(result.extensionInvoked)
        #expect(result.fallback == nil)
        #expect(result.imageURL == "https://fixtures.richpush.test/cat.png")
        #expect(result.attachment?.url == "https://fixtures.richpush.test/cat.png")
        #expect(result.attachment?.mimeType == "image/png")
        #expect(result.attachment?.width == 640)
        #expect(result.content.title == "New arrivals")
        #expect(result.pushID == "p-7")
        #expect(
            result.events == [
                .received, .extensionStarted, .downloadStarted, .downloadProgress, .downloadFinished,
                .attachmentCreated,
                .contentHandlerCalled, .presented,
            ])
    }

    @Test func observersHearTheLimitsTheDecodedTextThenEveryStepAndTheBytes() async {
        let heard = Mutex<[DeliveryProgress]>([])
        let system = NotificationSystem(downloader: ScriptedDownloader.succeeding(bytes: 100))
        let result = await system.deliver(.file("p.json", bytes: payload(Self.imagePayload), appState: .closed)) {
            progress in heard.withLock { $0.append(progress) }
        }
        let all = heard.withLock { $0 }
        #expect(all.first == .limits(EffectiveLimits(DeliveryConfiguration())))
        let progress = all.dropFirst()
        #expect(
            progress.first.flatMap { if case .event(let event) = $0 { event.kind } else { nil } }
                == TimelineEvent.Kind.received)
        #expect(progress.dropFirst().first == .decoded(NotificationContent(title: "New arrivals", body: "Tap to see")))
        #expect(progress.compactMap { if case .event(let event) = $0 { event } else { nil } } == result.timeline)
        #expect(progress.contains(.bytesReceived(100, expected: nil)))
    }

    @Test func foregroundKeepsThePlainBannerAndNeverRunsTheExtension() async {
        let called = Atomic<Bool>(false)
        let downloader = ScriptedDownloader { _, _, _ in
            called.store(true, ordering: .relaxed)
            throw DownloadFailure(.networkError, "must not be called")
        }
        let result = await deliver(Self.imagePayload, state: .foreground, downloader: downloader)
        #expect(result.style == .plain)
        #expect(result.extensionInvoked == false)
        #expect(result.fallback?.reason == .foreground)
        #expect(result.attachment == nil)
        #expect(result.content.title == "New arrivals")
        let downloaderWasCalled = called.load(ordering: .relaxed)
        #expect(downloaderWasCalled == false)
    }

    @Test func noImageIsPlainWithoutAFallback() async {
        let result = await deliver(#"{"aps": {"alert": "Hi", "mutable-content": 1}}"#)
        #expect(result.style == .plain)
        #expect(result.extensionInvoked)
        #expect(result.fallback == nil)
        #expect(result.imageURL == nil)
    }

    @Test func missingMutableContentIsPlainWithAHint() async {
        let result = await deliver(
            #"{"aps": {"alert": "Hi"}, "fcm_options": {"image": "https://fixtures.richpush.test/cat.png"}}"#
        )
        #expect(result.style == .plain)
        #expect(result.extensionInvoked == false)
        #expect(result.fallback?.reason == .notMutable)
        #expect(result.hint?.contains("mutable-content") == true)
    }

    @Test func booleanMutableContentGetsAHintNamingTheFix() async {
        let result = await deliver(
            #"{"aps": {"alert": "Hi", "mutable-content": true}, "fcm_options": {"image": "https://a.test/c.png"}}"#
        )
        #expect(result.fallback?.reason == .notMutable)
        #expect(
            result.hint
                == #"aps.mutable-content is true (a boolean); iOS runs the extension only for the number 1: send "mutable-content": 1."#
        )
    }

    @Test func aSilentPushShowsNothing() async {
        let result = await deliver(
            #"{"aps": {"content-available": 1}, "fcm_options": {"image": "https://a.test/c.png"}}"#)
        #expect(result.style == .silent)
        #expect(result.delivered)
        #expect(result.extensionInvoked == false)
        #expect(result.fallback?.reason == .noAlert)

        let soundOnly = await deliver(
            #"{"aps": {"sound": "default", "badge": 2, "mutable-content": 1}}"#)
        #expect(soundOnly.style == .silent)
        #expect(soundOnly.extensionInvoked == false)
        #expect(soundOnly.fallback == nil)
    }

    @Test func insecureAndInvalidURLsFallBackWithoutDownloading() async {
        let downloader = ScriptedDownloader { _, _, _ in
            throw DownloadFailure(.networkError, "must not be called")
        }
        let http = await deliver(
            #"{"aps": {"alert": "x", "mutable-content": 1}, "fcm_options": {"image": "http://a.test/c.png"}}"#,
            downloader: downloader)
        #expect(http.fallback?.reason == .insecureURL)
        #expect(http.style == .plain)
        #expect(!http.events.contains(.downloadStarted))

        let invalid = await deliver(
            #"{"aps": {"alert": "x", "mutable-content": 1}, "fcm_options": {"image": "cat.png"}}"#,
            downloader: downloader)
        #expect(invalid.fallback?.reason == .invalidURL)
    }

    @Test(arguments: [
        FallbackReason.httpStatus, .networkError, .notAnImage, .unsupportedImageType, .tooLarge,
        .insecureRedirect,
    ])
    func everyDownloadFailureFallsBackToPlainTextWithItsReason(reason: FallbackReason) async {
        let result = await deliver(
            Self.imagePayload, downloader: .failing(reason, "detail of \(reason)"))
        #expect(result.style == .plain)
        #expect(result.fallback == Fallback(reason, "detail of \(reason)"))
        #expect(result.content == NotificationContent(title: "New arrivals", body: "Tap to see"))
        #expect(result.events.contains(.downloadFailed))
    }

    @Test func aDownloadSlowerThanTheTimeoutFallsBackAtFiveSeconds() async throws {
        let clock = ArmedTestClock()
        let system = NotificationSystem(downloader: ScriptedDownloader.hanging(on: clock), clock: clock)
        let result = await driving(clock) {
            await system.deliver(.file("slow.json", bytes: payload(Self.imagePayload), appState: .background))
        }
        #expect(result.fallback?.reason == .timeout)
        #expect(result.fallback?.detail == "no complete image within 5 s")
        #expect(result.style == .plain)
        let failedAt = try #require(result.time(of: .downloadFailed))
        #expect(failedAt == 5)
        #expect(!result.events.contains(.timeWillExpire))
    }

    @Test func theDownloadTimeoutIsConfigurable() async {
        let clock = ArmedTestClock()
        let system = NotificationSystem(
            downloader: ScriptedDownloader.hanging(on: clock), clock: clock,
            configuration: DeliveryConfiguration(downloadTimeout: .seconds(2)))
        let result = await driving(clock) {
            await system.deliver(.file("slow.json", bytes: payload(Self.imagePayload), appState: .closed))
        }
        #expect(result.fallback?.detail == "no complete image within 2 s")
        #expect(result.time(of: .downloadFailed) == 2)
    }

    @Test func whenTheBudgetRunsOutTheBestAttemptIsDeliveredAndTheDownloadCancelled() async throws {
        let clock = ArmedTestClock()
        let cancelled = Atomic<Bool>(false)
        let downloader = ScriptedDownloader { _, _, _ in
            do {
                try await clock.sleep(for: .seconds(3600))
            } catch {
                cancelled.store(true, ordering: .relaxed)
                throw error
            }
            throw DownloadFailure(.networkError, "unreachable")
        }
        let system = NotificationSystem(
            downloader: downloader, clock: clock,
            configuration: DeliveryConfiguration(
                downloadTimeout: .seconds(60), extensionBudget: .seconds(30)))
        let result = await driving(clock) {
            await system.deliver(.file("expire.json", bytes: payload(Self.imagePayload), appState: .background))
        }
        #expect(result.fallback?.reason == .extensionExpired)
        #expect(result.style == .plain)
        #expect(result.content.title == "New arrivals")
        let downloadWasCancelled = cancelled.load(ordering: .relaxed)
        #expect(downloadWasCancelled)
        let expiredAt = try #require(result.time(of: .timeWillExpire))
        #expect(expiredAt == 30)
        // The cancelled download's own completion reaches the handler second and is ignored.
        #expect(result.events.filter { $0 == .contentHandlerCalled }.count == 1)
        #expect(result.events.contains(.duplicateCompletionIgnored))
    }

    @Test func aDownloadFinishingAfterExpiryIsIgnoredAndItsFileDiscarded() async {
        let clock = ArmedTestClock()
        // Ignores cancellation, as a careless extension would, and finishes after the budget.
        let downloader = ScriptedDownloader { _, _, _ in
            try? await clock.sleep(for: .seconds(31))
            return DownloadedImage(
                file: URL(fileURLWithPath: "/tmp/late.png"), format: .png, width: 1, height: 1, frames: 1,
                bytes: 10,
                sha256: "", servedContentType: "image/png")
        }
        let system = NotificationSystem(
            downloader: downloader, clock: clock,
            configuration: DeliveryConfiguration(downloadTimeout: .seconds(60)))
        let result = await driving(clock) {
            await system.deliver(.file("late.json", bytes: payload(Self.imagePayload), appState: .background))
        }
        #expect(result.fallback?.reason == .extensionExpired)
        #expect(result.attachment == nil)
        #expect(result.events.filter { $0 == .contentHandlerCalled }.count == 1)
        // The notification is presented when the handler is called; the late completion comes after it.
        let handler = result.events.firstIndex(of: .contentHandlerCalled)
        #expect(handler.map { result.events[$0 + 1] } == .presented)
        #expect(result.events.last == .duplicateCompletionIgnored)
        #expect(downloader.discarded.all == [URL(fileURLWithPath: "/tmp/late.png")])
    }

    @Test func attachmentsIOSWouldRefuseAreDroppedWithTheReason() async {
        let oversized = await deliver(
            Self.imagePayload, downloader: .succeeding(bytes: DownloadLimits.tenMegabytes + 1),
            configuration: DeliveryConfiguration(attachmentMaxBytes: DownloadLimits.tenMegabytes))
        #expect(oversized.style == .plain)
        #expect(oversized.attachment == nil)
        #expect(oversized.fallback?.reason == .attachmentRejected)
        #expect(oversized.events.contains(.attachmentRejected))

        let validator = AttachmentValidator()
        let good = Attachment(
            url: "u", format: .jpeg, width: 2, height: 2, frames: 1, bytes: 100, sha256: "",
            file: "/t/a.jpg")
        #expect(validator.rejection(for: good) == nil)
        var misnamed = good
        misnamed.file = "/t/a%20b.png?x=1"
        #expect(validator.rejection(for: misnamed) != nil)
        var empty = good
        empty.width = 0
        #expect(validator.rejection(for: empty) != nil)
    }

    @Test func anExtensionThatAllowsBiggerImagesStillMeetsTheSystemLimit() async {
        let limitsSeen = Atomic<Int>(0)
        let big = ScriptedDownloader { url, limits, events in
            limitsSeen.store(limits.maxBytes, ordering: .relaxed)
            return try await ScriptedDownloader.succeeding(bytes: 11 * 1024 * 1024).download(
                url, limits: limits, events: events)
        }
        let result = await deliver(
            Self.imagePayload, downloader: big,
            configuration: DeliveryConfiguration(downloadMaxBytes: 20 * 1024 * 1024))
        let downloaderLimit = limitsSeen.load(ordering: .relaxed)
        #expect(downloaderLimit == 20 * 1024 * 1024)
        #expect(result.fallback?.reason == .attachmentRejected)
        #expect(result.events.contains(.attachmentCreated))
        #expect(result.style == .plain)
    }

    @Test func theOriginalContentIsShownWhenTheExtensionLostTheAlertText() {
        let original = NotificationContent(title: "T", body: "B")
        #expect(
            SystemRules.presentedContent(original: original, fromExtension: NotificationContent())
                == original)
        let edited = NotificationContent(title: "T2")
        #expect(SystemRules.presentedContent(original: original, fromExtension: edited) == edited)
    }

    @Test func malformedAndOversizedPayloadsAreRejectedNotDelivered() async {
        let malformed = await deliver("{\"aps\": ")
        #expect(malformed.delivered == false)
        #expect(malformed.rejection?.reason == .malformedJSON)
        #expect(malformed.style == .silent)
        #expect(malformed.events == [.received, .rejected])

        let big = await deliver(
            #"{"aps": {"alert": "x"}, "f": "\#(String(repeating: "z", count: 5000))"}"#)
        #expect(big.rejection?.reason == .payloadTooLarge)
    }

    @Test func aHintNamesTheImageKeyThatWouldPickUpTheImage() async {
        let json =
            #"{"aps": {"alert": "x", "mutable-content": 1}, "data": {"smallImage": "https://fixtures.richpush.test/cat.png"}}"#
        let without = await deliver(json)
        #expect(without.imageURL == nil)
        #expect(without.style == .plain)
        #expect(
            without.hint
                == "No image key path matched, but data.smallImage holds an https URL: add --image-key data.smallImage to use it."
        )

        let with = await deliver(
            json,
            configuration: DeliveryConfiguration(imagePolicy: .blueprint(adding: ["data.smallImage"])))
        #expect(with.style == .rich)
        #expect(with.hint == nil)
    }

    @Test func manyNotificationsRunInTheirOwnExtensionsAtOnce() async {
        let inFlight = Atomic<Int>(0)
        let peak = Atomic<Int>(0)
        let downloader = ScriptedDownloader { url, _, _ in
            let now = inFlight.add(1, ordering: .relaxed).newValue
            _ = peak.max(now, ordering: .relaxed)
            try await Task.sleep(for: .milliseconds(50))
            inFlight.subtract(1, ordering: .relaxed)
            return DownloadedImage(
                file: URL(fileURLWithPath: "/tmp/\(url.lastPathComponent)"), format: .gif, width: 1,
                height: 1,
                frames: 3, bytes: 1, sha256: "", servedContentType: "image/gif")
        }
        let system = NotificationSystem(downloader: downloader)
        let results = await withTaskGroup(of: DeliveryResult.self) { group in
            for index in 0..<10 {
                group.addTask {
                    let json =
                        #"{"aps": {"alert": "n\#(index)", "mutable-content": 1}, "fcm_options": {"image": "https://a.test/\#(index).gif"}}"#
                    return await system.deliver(.file("\(index).json", bytes: payload(json), appState: .background))
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.count == 10)
        #expect(results.allSatisfy { $0.style == .rich && $0.attachment?.frames == 3 })
        let mostAtOnce = peak.load(ordering: .relaxed)
        #expect(mostAtOnce > 1)
    }

    @Test func aCollapseIDIsReportedAndAnOverlongOneHinted() async {
        let short = await deliver(
            #"{"message": {"notification": {"title": "T"}, "apns": {"headers": {"apns-collapse-id": "sale-42"}}}}"#)
        #expect(short.collapseID == "sale-42")
        #expect(short.jsonValue["collapseID"] == "sale-42")
        let long = String(repeating: "x", count: 65)
        let overlong = await deliver(
            #"{"message": {"notification": {"title": "T"}, "apns": {"headers": {"apns-collapse-id": "\#(long)"}}}}"#)
        #expect(overlong.hint == "apns-collapse-id is 65 bytes; APNs refuses ids over 64 bytes (BadCollapseId).")
    }

    @Test func theResultJSONFollowsTheContract() async throws {
        let result = await deliver(Self.imagePayload)
        let object = try #require(result.jsonValue.objectValue)
        #expect(
            Array(object.keys.prefix(16)) == [
                "file", "appState", "delivered", "rejection", "extensionInvoked", "style", "title",
                "subtitle", "body",
                "imageURL", "attachment", "media", "fallback", "hint", "timeline", "elapsed",
            ])
        #expect(object["media"] == .null)
        #expect(object["fallback"] == .null)
        #expect(object["attachment"]?["format"] == "png")
        #expect(object["attachment"]?["mimeType"] == "image/png")
        guard case .array(let timeline)? = object["timeline"] else {
            Issue.record("timeline is not an array")
            return
        }
        #expect(timeline.first?["event"] == "received")
        #expect(timeline.first?["at"] == 0)
    }
}
