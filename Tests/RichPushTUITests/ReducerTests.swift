import RichPushCore
import Testing

@testable import RichPushTUI

@Suite struct ReducerTests {
    private func state() -> TUIState { Fixtures.state() }

    @Test func stateKeysSwitchTheAppState() {
        var state = state()
        _ = reduce(&state, KeyBindings.action(for: .character("f"))!)
        #expect(state.appState == .foreground)
        _ = reduce(&state, KeyBindings.action(for: .character("c"))!)
        #expect(state.appState == .closed)
        _ = reduce(&state, KeyBindings.action(for: .character("b"))!)
        #expect(state.appState == .background)
    }

    @Test func cycleKeyGoesForegroundBackgroundClosed() {
        var state = state()
        state.appState = .foreground
        var seen: [AppState] = []
        for _ in 0..<3 {
            _ = reduce(&state, KeyBindings.action(for: .character("s"))!)
            seen.append(state.appState)
        }
        #expect(seen == [.background, .closed, .foreground])
    }

    @Test func tabSwitchesFocusAndArrowsMoveInTheFocusedPane() {
        var state = state()
        _ = reduce(&state, .moveSelection(2))
        #expect(state.librarySelection == 2)
        _ = reduce(&state, .moveSelection(100))
        #expect(state.librarySelection == Fixtures.library.count - 1, "clamped to the last file")
        _ = reduce(&state, .moveSelection(-100))
        #expect(state.librarySelection == 0)
        _ = reduce(&state, KeyBindings.action(for: .tab)!)
        #expect(state.focus == .notifications)
        _ = reduce(&state, .moveSelection(1))
        #expect(state.librarySelection == 0, "the library keeps its selection while the other pane has focus")
    }

    @Test func enterOnALibraryItemSendsItInTheCurrentState() {
        var state = state()
        state.appState = .closed
        state.librarySelection = 3
        state.now = 12
        let effects = reduce(&state, .activate)
        #expect(effects == [.deliver(id: 1, file: "png-background.json", appState: .closed)])
        #expect(state.notifications.map(\.file) == ["png-background.json"])
        #expect(state.notifications[0].isInFlight)
        #expect(state.notifications[0].sentAt == 12)
    }

    @Test func newestFirstAndTheNewestIsSelected() {
        var state = state()
        for index in [3, 2, 0] {
            state.librarySelection = index
            _ = reduce(&state, .activate)
        }
        #expect(state.notifications.map(\.file) == ["fcm/v1-image.json", "http-url.json", "png-background.json"])
        #expect(state.notifications.map(\.id) == [3, 2, 1])
        #expect(state.notificationSelection == 0)
    }

    @Test func aNotificationReplacesEarlierOnesWithTheSameCollapseID() {
        var sale = Fixtures.richResult()
        sale.collapseID = "sale-42"
        var other = Fixtures.insecureResult()
        other.collapseID = "news"
        var state = Fixtures.state([Fixtures.entry(2, other, sentAt: 2), Fixtures.entry(1, sale, sentAt: 1)])
        state.librarySelection = 3
        _ = reduce(&state, .activate)
        let newID = state.notifications[0].id
        var update = Fixtures.richResult()
        update.collapseID = "sale-42"
        update.attachment?.file = "/tmp/richpush-test/new.png"
        let effects = reduce(&state, .deliveryFinished(id: newID, update))
        #expect(state.notifications.map(\.id) == [newID, 2], "the earlier sale-42 notification is gone")
        #expect(effects == [.discardAttachments([sale.attachment!.file])])
        #expect(state.status?.contains("apns-collapse-id sale-42") == true)
    }

    @Test func progressActionsUpdateTheRowUntilTheResultArrives() {
        var state = state()
        state.librarySelection = 3
        _ = reduce(&state, .activate)
        _ = reduce(&state, .deliveryProgress(id: 1, .decoded(NotificationContent(title: "New arrivals"))))
        _ = reduce(&state, .deliveryProgress(id: 1, .event(TimelineEvent(at: 0, .received))))
        _ = reduce(&state, .deliveryProgress(id: 1, .event(TimelineEvent(at: 0.001, .extensionStarted))))
        _ = reduce(&state, .deliveryProgress(id: 1, .event(TimelineEvent(at: 0.002, .downloadStarted))))
        _ = reduce(&state, .deliveryProgress(id: 1, .bytesReceived(0, expected: 48_213)))
        _ = reduce(&state, .deliveryProgress(id: 1, .bytesReceived(20_000, expected: nil)))
        var entry = state.notifications[0]
        #expect(entry.content.title == "New arrivals")
        #expect(entry.events.map(\.kind) == [.received, .extensionStarted, .downloadStarted])
        #expect(entry.bytesReceived == 20_000)
        #expect(entry.bytesExpected == 48_213, "a later report without Content-Length keeps the known size")
        #expect(state.inFlightCount == 1 && state.isAnimating)

        _ = reduce(&state, .deliveryFinished(id: 1, Fixtures.richResult()))
        entry = state.notifications[0]
        #expect(!entry.isInFlight)
        #expect(entry.events == Fixtures.richResult().timeline)
        #expect(state.inFlightCount == 0 && !state.isAnimating)
        #expect(state.banner == nil, "no banner outside the foreground")
    }

    @Test func foregroundArrivalShowsABannerForFourSeconds() {
        var state = state()
        state.appState = .foreground
        _ = reduce(&state, .tick(10))
        _ = reduce(&state, .activate)
        _ = reduce(&state, .deliveryFinished(id: 1, Fixtures.foregroundResult()))
        #expect(state.banner?.title == "New arrivals")
        _ = reduce(&state, .tick(13.9))
        #expect(state.banner != nil)
        _ = reduce(&state, .tick(14.0))
        #expect(state.banner == nil)
    }

    @Test func enterOnANotificationOpensTheDetailAndEscClosesIt() {
        var state = Fixtures.state([
            Fixtures.entry(1, Fixtures.richResult(), sentAt: 1),
            Fixtures.entry(2, Fixtures.insecureResult(), sentAt: 2),
        ])
        state.focus = .notifications
        state.size = TUIState.minimumSize
        _ = reduce(&state, .moveSelection(1))
        _ = reduce(&state, .activate)
        #expect(state.detailEntry?.id == 1)
        _ = reduce(&state, .moveSelection(3))
        #expect(state.detailScroll == 3, "arrows scroll the detail view")
        _ = reduce(&state, KeyBindings.action(for: .escape)!)
        #expect(state.detailID == nil)
        #expect(state.notificationSelection == 1)
    }

    @Test func detailScrollStopsAtTheEnd() {
        var state = Fixtures.state([Fixtures.entry(1, Fixtures.richResult(), sentAt: 1)])
        state.size = TerminalSize(columns: 60, rows: 16)
        state.detailID = 1
        _ = reduce(&state, .moveToLast)
        let end = state.detailScroll
        #expect(end > 0)
        _ = reduce(&state, .moveSelection(50))
        #expect(state.detailScroll == end)
        _ = reduce(&state, .resized(TerminalSize(columns: 120, rows: 60)))
        #expect(state.detailScroll == 0, "everything fits on a tall terminal")
    }

    @Test func deleteRemovesTheSelectedNotification() {
        var state = Fixtures.state([
            Fixtures.entry(1, Fixtures.richResult(), sentAt: 1),
            Fixtures.entry(2, Fixtures.insecureResult(), sentAt: 2),
            Fixtures.entry(3, Fixtures.timeoutResult(), sentAt: 3),
        ])
        state.notificationSelection = 2
        let effects = reduce(&state, .deleteSelected)
        #expect(state.notifications.map(\.id) == [3, 2])
        #expect(effects == [.discardAttachments([Fixtures.richResult().attachment!.file])], "its image file goes too")
        #expect(state.notificationSelection == 1, "the selection moves to the row that took its place")

        state.detailID = 3
        _ = reduce(&state, .deleteSelected)
        #expect(state.notifications.map(\.id) == [2], "in the detail view, d deletes the notification shown")
        #expect(state.detailID == nil)
    }

    @Test func deletedInFlightNotificationIgnoresLateNews() {
        var state = state()
        _ = reduce(&state, .activate)
        _ = reduce(&state, .deleteSelected)
        let effects = reduce(&state, .deliveryFinished(id: 1, Fixtures.richResult()))
        #expect(state.notifications.isEmpty)
        #expect(
            effects == [.discardAttachments([Fixtures.richResult().attachment!.file])], "the late image is discarded")
    }

    @Test func clearRemovesEverything() {
        var state = Fixtures.state([
            Fixtures.entry(1, Fixtures.richResult(), sentAt: 1),
            Fixtures.entry(2, Fixtures.insecureResult(), sentAt: 2),
        ])
        state.detailID = 1
        let effects = reduce(&state, KeyBindings.action(for: .character("x"))!)
        #expect(state.notifications.isEmpty && state.detailID == nil && state.notificationSelection == 0)
        #expect(effects == [.discardAttachments([Fixtures.richResult().attachment!.file])])
    }

    @Test func helpIsModalAndClosesWithEscOrQuestionMark() {
        var state = state()
        _ = reduce(&state, KeyBindings.action(for: .character("?"))!)
        #expect(state.isHelpVisible)
        #expect(reduce(&state, .activate).isEmpty, "Enter does not send behind the help")
        _ = reduce(&state, .moveSelection(1))
        #expect(state.librarySelection == 0)
        _ = reduce(&state, KeyBindings.action(for: .backspace)!)
        #expect(!state.isHelpVisible)
        _ = reduce(&state, .toggleHelp)
        _ = reduce(&state, .toggleHelp)
        #expect(!state.isHelpVisible)
    }

    @Test func quitAndCtrlCAskTheLoopToStop() {
        for key in [Key.character("q"), .interrupt] {
            var state = state()
            #expect(reduce(&state, KeyBindings.action(for: key)!) == [.quit])
            #expect(state.isQuitting)
        }
    }

    @Test func reloadKeepsTheSelectedFile() {
        var state = state()
        state.librarySelection = 3
        #expect(reduce(&state, .reloadLibrary) == [.loadLibrary])
        _ = reduce(&state, .libraryLoaded(.success(LibraryListing(files: ["a.json", "png-background.json"]))))
        #expect(state.selectedLibraryFile == "png-background.json")
        _ = reduce(&state, .libraryLoaded(.failure(LibraryError(message: "payloads is not a folder"))))
        #expect(state.library.isEmpty && state.libraryError == "payloads is not a folder")
    }

    @Test func unreadablePayloadIsShownAsAnError() {
        var state = state()
        _ = reduce(&state, .activate)
        _ = reduce(&state, .deliveryFailed(id: 1, "cannot read payloads/gone.json"))
        #expect(!state.notifications[0].isInFlight)
        let status = NotificationSummary.status(of: state.notifications[0], now: 0, configured: state.configuredLimits)
        #expect(status.text == "error — cannot read payloads/gone.json")
    }

    // MARK: - The limits of that notification

    @Test func progressAndExplanationQuoteTheLimitsOfThatNotification() {
        var state = state()
        #expect(state.configuredLimits.extensionBudget == .seconds(30))
        _ = reduce(&state, .activate)
        _ = reduce(&state, .deliveryProgress(id: 1, .limits(Fixtures.oneSecondBudget)))
        _ = reduce(&state, .deliveryProgress(id: 1, .event(TimelineEvent(at: 0, .extensionStarted))))
        _ = reduce(&state, .deliveryProgress(id: 1, .event(TimelineEvent(at: 0, .downloadStarted))))
        _ = reduce(&state, .tick(state.now + 0.25))
        let inFlight = render(state, size: state.size).text
        #expect(inFlight.contains("left of 1 s budget"), "in flight: \(inFlight)")
        #expect(inFlight.contains("left of 10 s"))
        #expect(!inFlight.contains("left of 30 s budget"))

        _ = reduce(&state, .deliveryFinished(id: 1, Fixtures.expiredResult()))
        _ = reduce(&state, .switchFocus)
        _ = reduce(&state, .activate)
        let detail = render(state, size: state.size).text
        #expect(detail.contains("The extension used up its 1 second before the image was ready"), "\(detail)")
        #expect(!detail.contains("30 seconds"))
    }

    @Test func theResultsLimitsWinOverWhatProgressSaid() {
        var state = state()
        _ = reduce(&state, .activate)
        _ = reduce(&state, .deliveryProgress(id: 1, .limits(Fixtures.configuredLimits)))
        _ = reduce(&state, .deliveryFinished(id: 1, Fixtures.expiredResult()))
        #expect(state.notifications[0].limits == Fixtures.oneSecondBudget)
    }

    // MARK: - Stacks of one thread-id

    /// Sale 1 and 3 are thread "sale", 2 has no thread; newest first: 3, 2, 1.
    private func threadedState() -> TUIState {
        var state = Fixtures.state([
            Fixtures.entry(1, Fixtures.threadResult(1, thread: "sale"), sentAt: 1),
            Fixtures.entry(2, Fixtures.threadResult(2, thread: nil), sentAt: 2),
            Fixtures.entry(3, Fixtures.threadResult(3, thread: "sale"), sentAt: 3),
        ])
        state.focus = .notifications
        return state
    }

    @Test func notificationsOfOneThreadStackUnderTheNewest() {
        let state = threadedState()
        let rows = state.rows
        #expect(rows.map(\.entry.id) == [3, 2], "the stack shows its newest; the one without thread-id stays single")
        #expect(rows[0].ids == [3, 1])
        #expect(rows[0].stack?.count == 2 && rows[0].isCollapsedStack)
        #expect(rows[1].stack == nil)
    }

    @Test func anEmptyThreadIDStacksNothing() {
        let state = Fixtures.state([
            Fixtures.entry(1, Fixtures.threadResult(1, thread: ""), sentAt: 1),
            Fixtures.entry(2, Fixtures.threadResult(2, thread: ""), sentAt: 2),
        ])
        #expect(state.rows.map(\.ids) == [[2], [1]])
    }

    @Test func enterSpreadsAStackOutAndSpaceFoldsItBack() {
        var state = threadedState()
        _ = reduce(&state, .activate)
        #expect(state.detailID == nil, "Enter on a collapsed stack expands it instead of opening it")
        #expect(state.rows.map(\.entry.id) == [3, 1, 2])
        _ = reduce(&state, .moveSelection(1))
        _ = reduce(&state, .activate)
        #expect(state.detailID == 1, "Enter on a notification of an expanded stack opens it")
        _ = reduce(&state, .back)
        _ = reduce(&state, KeyBindings.action(for: .character(" "))!)
        #expect(state.rows.map(\.entry.id) == [3, 2])
        #expect(state.notificationSelection == 0, "the selection stays on the folded stack")
        _ = reduce(&state, .moveSelection(1))
        _ = reduce(&state, .toggleStack)
        #expect(state.rows.count == 2, "Space on a single notification does nothing")
    }

    @Test func aNewNotificationOfTheThreadGoesOnTopOfItsStack() {
        var state = threadedState()
        state.focus = .library
        _ = reduce(&state, .activate)
        let id = state.notifications[0].id
        #expect(state.rows.map(\.entry.id) == [id, 3, 2], "in flight, its thread-id is not known yet")
        _ = reduce(&state, .deliveryFinished(id: id, Fixtures.threadResult(4, thread: "sale")))
        #expect(state.rows.map(\.entry.id) == [id, 2])
        #expect(state.rows[0].ids == [id, 3, 1])
        #expect(state.notificationSelection == 0)
    }

    @Test func deletingACollapsedStackDeletesAllOfIt() {
        var state = threadedState()
        let effects = reduce(&state, .deleteSelected)
        #expect(state.notifications.map(\.id) == [2])
        #expect(
            effects == [
                .discardAttachments([
                    Fixtures.threadResult(3, thread: "sale").attachment!.file,
                    Fixtures.threadResult(1, thread: "sale").attachment!.file,
                ])
            ])
        #expect(state.status == "Deleted 2 notifications (thread sale)")
    }

    @Test func deletingInAnExpandedStackDeletesOneAndTheLastOneIsSingleAgain() {
        var state = threadedState()
        _ = reduce(&state, .activate)
        _ = reduce(&state, .moveSelection(1))
        _ = reduce(&state, .deleteSelected)
        #expect(state.notifications.map(\.id) == [3, 2])
        #expect(state.rows.allSatisfy { $0.stack == nil })
        #expect(state.expandedThreads.isEmpty, "a later notification of the thread stacks collapsed again")
    }

    @Test func collapseIDReplacementInsideAStack() {
        var state = Fixtures.state([
            Fixtures.entry(1, Fixtures.threadResult(1, thread: "sale", collapseID: "price"), sentAt: 1),
            Fixtures.entry(2, Fixtures.threadResult(2, thread: "sale"), sentAt: 2),
        ])
        _ = reduce(&state, .activate)
        let id = state.notifications[0].id
        let effects = reduce(
            &state, .deliveryFinished(id: id, Fixtures.threadResult(3, thread: "sale", collapseID: "price")))
        #expect(state.notifications.map(\.id) == [id, 2], "the older price notification is replaced")
        #expect(state.rows.map(\.ids) == [[id, 2]], "the newer one stays in the stack")
        #expect(effects == [.discardAttachments([Fixtures.threadResult(1, thread: "sale").attachment!.file])])
    }
}

@Suite struct ExportReducerTests {
    @Test func eExportsTheFinishedNotificationsOldestFirstAndTheStatusNamesTheFile() {
        var state = Fixtures.state()
        #expect(reduce(&state, .exportReport).isEmpty)
        #expect(state.status == "Nothing to export yet: send a payload first")

        state = Fixtures.state([
            Fixtures.entry(1, Fixtures.richResult(), sentAt: 1), Fixtures.entry(2, Fixtures.timeoutResult(), sentAt: 2),
            Fixtures.downloadingEntry(3, sentAt: 3),
        ])
        let effects = reduce(&state, .exportReport)
        #expect(effects == [.exportReport([Fixtures.richResult(), Fixtures.timeoutResult()])])
        #expect(state.status == "Writing the report of 2 notifications (1 still in flight left out)…")

        _ = reduce(&state, .exportFinished(.success("/tmp/richpush-report-1.html")))
        #expect(state.status == "Report written to /tmp/richpush-report-1.html")
        _ = reduce(&state, .exportFinished(.failure(ExportError("/ro/x.html: Read-only file system"))))
        #expect(state.status == "No report: /ro/x.html: Read-only file system")
    }

    @Test func theKeyIsE() {
        #expect(KeyBindings.action(for: .character("e")) == .exportReport)
    }
}

@Suite struct RecordKeyReducerTests {
    @Test func wRecordsTheOpenNotificationAndTheStatusNamesTheFile() {
        var state = Fixtures.state([
            Fixtures.entry(1, Fixtures.richResult(), sentAt: 1), Fixtures.downloadingEntry(2, sentAt: 2),
        ])
        state.detailID = 1
        #expect(
            reduce(&state, KeyBindings.action(for: .character("w"))!) == [
                .recordNotification(Fixtures.richResult())
            ])
        _ = reduce(&state, .recordFinished(.success("corpus/2026-11-26T06-12-03Z-push.json")))
        #expect(state.status == "Recorded to corpus/2026-11-26T06-12-03Z-push.json")
        _ = reduce(&state, .recordFinished(.failure(ExportError("start the notification center with --record DIR"))))
        #expect(state.status == "Not recorded: start the notification center with --record DIR")
    }

    @Test func aNotificationStillInFlightIsNotRecorded() {
        var state = Fixtures.state([Fixtures.downloadingEntry(2, sentAt: 2)])
        state.detailID = 2
        #expect(reduce(&state, .recordSelected).isEmpty)
        #expect(state.status == "Nothing to record: select a notification that has arrived")
    }

    @Test func theRecorderSpeaksInTheStatusLine() {
        var state = Fixtures.state()
        _ = reduce(&state, .endpointNote("recording stopped: --record-max 100 reached"))
        #expect(state.status == "recording stopped: --record-max 100 reached")
    }
}
