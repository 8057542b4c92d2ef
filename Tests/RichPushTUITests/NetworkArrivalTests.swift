import Foundation
import Logging
import RichPushCore
import Testing

@testable import RichPushTUI

/// Pushes that arrive over the network (the APNs and FCM endpoints the notification center listens on).
@Suite struct NetworkArrivalTests {
    private static let pushID = "6f1d1a3c-8b0e-4c1e-9d5a-2f7a9c3e1b40"

    private static func refusedResult() -> DeliveryResult {
        DeliveryResult(
            file: "/3/device/0a1b", appState: .background, delivered: false, style: .silent,
            timeline: [
                TimelineEvent(at: 0, .received, "27 bytes, app background"),
                TimelineEvent(at: 0, .rejected, "400 BadTopic: apns-topic com.other.app is not com.example.app"),
            ])
    }

    @Test func theFirstNewsOfAPushListsItInFlightInTheAppStateOnScreen() {
        var state = Fixtures.state()
        state.appState = .closed
        state.now = 7
        _ = reduce(
            &state,
            .networkPushProgress(pushID: Self.pushID, source: "APNs push 0a1b2c3…", .limits(Fixtures.oneSecondBudget)))
        #expect(state.notifications.count == 1)
        let entry = state.notifications[0]
        #expect(entry.file == "APNs push 0a1b2c3…")
        #expect(entry.appState == .closed)
        #expect(entry.sentAt == 7)
        #expect(entry.isInFlight)
        #expect(entry.limits == Fixtures.oneSecondBudget)
        #expect(state.status == "Received APNs push 0a1b2c3… (app closed)")

        // Later news goes to the same notification, not a new one.
        _ = reduce(
            &state,
            .networkPushProgress(
                pushID: Self.pushID, source: "APNs push 0a1b2c3…", .bytesReceived(20_000, expected: 48_213)))
        #expect(state.notifications.count == 1)
        #expect(state.notifications[0].bytesReceived == 20_000)

        _ = reduce(
            &state,
            .networkPushFinished(
                pushID: Self.pushID, source: "APNs push 0a1b2c3…", Fixtures.richResult(), rejection: nil))
        #expect(state.notifications.count == 1)
        #expect(!state.notifications[0].isInFlight)
        #expect(state.notifications[0].result?.attachment?.summary == Fixtures.catAttachment.summary)
        #expect(state.notifications[0].file == "APNs push 0a1b2c3…", "the row still says where it came from")
        #expect(state.notifications[0].appState == .background, "the state the endpoint delivered it in")
        #expect(state.networkPushes.isEmpty)
    }

    @Test func anArrivalKeepsTheSelectedNotificationSelected() {
        var state = Fixtures.state()
        _ = reduce(&state, .activate)
        _ = reduce(&state, .deliveryFinished(id: 1, Fixtures.insecureResult()))
        _ = reduce(&state, .switchFocus)
        #expect(state.selectedNotification?.id == 1)
        _ = reduce(
            &state, .networkPushProgress(pushID: Self.pushID, source: "FCM push", .limits(Fixtures.configuredLimits)))
        #expect(state.notifications.map(\.file) == ["FCM push", Fixtures.library[0]], "newest first")
        #expect(state.selectedNotification?.id == 1, "the row the user was on stays selected")
    }

    @Test func aRefusedRequestIsListedAsRejectedWithTheSendersReason() {
        var state = Fixtures.state()
        // The refused request reuses the push ID of a push still in flight: it must not finish that one.
        _ = reduce(
            &state,
            .networkPushProgress(pushID: Self.pushID, source: "APNs push 0a1b2c3…", .limits(Fixtures.configuredLimits)))
        let reason = "400 BadTopic: apns-topic com.other.app is not com.example.app"
        _ = reduce(
            &state,
            .networkPushFinished(pushID: Self.pushID, source: "APNs push 0a1b", Self.refusedResult(), rejection: reason)
        )
        #expect(state.notifications.count == 2)
        let refused = state.notifications[0]
        #expect(!refused.isInFlight)
        #expect(state.notifications[1].isInFlight, "the accepted push is still in flight")
        let status = NotificationSummary.status(of: refused, now: 0, configured: Fixtures.configuredLimits)
        #expect(status.text == "rejected — \(reason)")
        #expect(state.status?.contains("BadTopic") == true)
        let detail = DetailContent(entry: refused, configuredLimits: Fixtures.configuredLimits, timeOfDay: 0)
            .lines(width: 100).map(\.text).joined(separator: "\n")
        #expect(detail.contains("Refused     \(reason)"))
        #expect(detail.contains("APNs push 0a1b"))
    }

    @Test func newsOfADeletedPushIsDropped() {
        var state = Fixtures.state()
        _ = reduce(
            &state, .networkPushProgress(pushID: Self.pushID, source: "FCM push", .limits(Fixtures.configuredLimits)))
        _ = reduce(&state, .switchFocus)
        _ = reduce(&state, .deleteSelected)
        #expect(state.notifications.isEmpty)
        _ = reduce(
            &state, .networkPushProgress(pushID: Self.pushID, source: "FCM push", .bytesReceived(10, expected: nil)))
        #expect(state.notifications.isEmpty, "progress of a deleted push does not bring it back")
        let effects = reduce(
            &state, .networkPushFinished(pushID: Self.pushID, source: "FCM push", Fixtures.richResult(), rejection: nil)
        )
        #expect(state.notifications.isEmpty)
        #expect(effects == [.discardAttachments([Fixtures.catAttachment.file])], "its image file is removed")
    }

    @Test func theDetailListsWhatTheRequestSaid() {
        var state = Fixtures.state()
        let source = PushSource(
            name: "APNs push 0a1b2c3…",
            details: [
                .init("Topic", "com.example.app"), .init("Push type", "alert"),
                .init("Auth", "ES256 token of team T, key K: signature not verified (no --auth-key)"),
            ])
        _ = reduce(
            &state, .networkPushProgress(pushID: Self.pushID, source: source, .limits(Fixtures.configuredLimits)))
        _ = reduce(
            &state, .networkPushFinished(pushID: Self.pushID, source: source, Fixtures.richResult(), rejection: nil))
        let detail = DetailContent(
            entry: state.notifications[0], configuredLimits: Fixtures.configuredLimits, timeOfDay: 0
        ).lines(width: 100).map(\.text)
        #expect(detail.contains("Request"))
        #expect(detail.contains("  Topic       com.example.app"))
        #expect(detail.contains("  Push type   alert"))
        #expect(detail.contains { $0.contains("signature not verified") })
    }

    @Test func aFloodOfPushesKeepsTheNewestAndDropsTheOldestWithTheirImages() {
        var state = Fixtures.state()
        state.capacity = 3
        _ = reduce(
            &state, .networkPushProgress(pushID: "in-flight", source: "APNs push 1", .limits(Fixtures.configuredLimits))
        )
        var discarded: [Effect] = []
        for number in 2...6 {
            var result = Fixtures.richResult()
            result.attachment?.file = "/tmp/richpush-test/\(number)/cat.png"
            discarded += reduce(
                &state,
                .networkPushFinished(
                    pushID: "p\(number)", source: .init(name: "APNs push \(number)"), result, rejection: nil))
        }
        #expect(state.notifications.map(\.file) == ["APNs push 6", "APNs push 5", "APNs push 1"], "in flight: kept")
        #expect(state.droppedCount == 3)
        #expect(discarded == (2...4).map { .discardAttachments(["/tmp/richpush-test/\($0)/cat.png"]) })
        let header = render(state, size: Fixtures.size).text.split(separator: "\n").first.map(String.init) ?? ""
        #expect(header.contains("3 older dropped"))
    }

    @Test func theHelpSaysWhereToPushAndWhichCAToTrust() {
        var state = Fixtures.state()
        state.endpointHelp = [
            "Pushes: APNs POST https://localhost:2197/3/device/<token>", "CA certificate (curl --cacert): /tmp/ca.pem",
        ]
        _ = reduce(&state, .toggleHelp)
        let text = render(state, size: Fixtures.size).text
        #expect(text.contains("Pushes: APNs POST https://localhost:2197/3/device/<token>"))
        #expect(text.contains("CA certificate (curl --cacert): /tmp/ca.pem"))
        #expect(text.contains("quit and restore the terminal"), "the keys are still listed")
    }

    @Test func theHeaderShowsWhereThePushesAreReceived() {
        var state = Fixtures.state()
        state.listening = "listening 127.0.0.1:2197"
        let text = render(state, size: Fixtures.size).text
        let header = text.split(separator: "\n").first.map(String.init) ?? ""
        #expect(header.contains("listening 127.0.0.1:2197"))
        #expect(header.contains("App state: BACKGROUND"))
        #expect(header.contains("0 notifications"))
    }

    /// The run loop: pushes reported to the feed (from any thread) arrive on screen, and the feed reads the
    /// app state the keys set.
    @Test func pushesFromTheFeedArriveOnScreenInTheAppStateOnScreen() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("richpush-net-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(#"{"aps":{"alert":"Hi"}}"#.utf8).write(to: folder.appendingPathComponent("hi.json"))
        defer { try? FileManager.default.removeItem(at: folder) }

        let terminal = InMemoryTerminal(size: TerminalSize(columns: 120, rows: 30))
        let (events, continuation) = AsyncStream.makeStream(of: AppEvent.self)
        let feed = NetworkFeed(appState: .background, listening: "listening 127.0.0.1:40123")
        var state = TUIState(
            appState: .background, libraryRoot: "payloads", size: terminal.size,
            startTimeOfDay: Fixtures.startTimeOfDay)
        state.listening = feed.listening
        let loop = NotificationCenterLoop(
            terminal: terminal, library: PayloadLibrary(root: folder.path), delivering: ScriptedDelivery(),
            state: state, continuation: continuation,
            logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }), network: feed)
        let running = Task { await loop.run(events: events) }

        await terminal.waitForFrame(containing: "listening 127.0.0.1:40123")
        terminal.type([.character("c")])
        continuation.yield(.input)
        await terminal.waitForFrame(containing: "App state: CLOSED")
        #expect(feed.appState == .closed, "a push arriving now is delivered in the state on screen")

        var result = Fixtures.richResult()
        result.appState = feed.appState
        let limits = result.limits ?? Fixtures.configuredLimits
        let timeline = result.timeline
        let pushID = Self.pushID
        await Task.detached {
            feed.progress(pushID: pushID, source: "APNs push 0a1b2c3…", .limits(limits))
            feed.progress(pushID: pushID, source: "APNs push 0a1b2c3…", .event(timeline[0]))
        }.value
        await terminal.waitForFrame(containing: "APNs push 0a1b2c3…")
        await terminal.waitForFrame(containing: "1 in flight")
        feed.finished(pushID: pushID, source: "APNs push 0a1b2c3…", result: result)
        let frame = await terminal.waitForFrame(containing: "png 640x480")?.text ?? terminal.text
        #expect(frame.contains("Notification Center (1)"))

        feed.finished(
            pushID: "other", source: "APNs push ffff", result: Self.refusedResult(),
            rejection: "400 BadDeviceToken: the token is not 64 hex digits")
        await terminal.waitForFrame(containing: "rejected — 400 BadDeviceToken")

        terminal.type([.character("q")])
        continuation.yield(.input)
        await running.value
    }
}
