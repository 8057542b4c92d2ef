import RichPushCore
import SnapshotTesting
import Testing

@testable import RichPushTUI

/// The main screens, snapshotted as the text a person would read.
@Suite struct RenderSnapshotTests {
    private func frame(_ state: TUIState, size: TerminalSize = Fixtures.size) -> CellGrid {
        let grid = render(state, size: size)
        #expect(grid.rowWidths.allSatisfy { $0 == size.columns }, "every row fills exactly the terminal width")
        return grid
    }

    private var listState: TUIState {
        var state = Fixtures.state([
            Fixtures.entry(1, Fixtures.richResult(), sentAt: 2),
            Fixtures.entry(2, Fixtures.insecureResult(), sentAt: 9),
            Fixtures.entry(3, Fixtures.timeoutResult(), sentAt: 15),
            Fixtures.entry(4, Fixtures.rejectedResult(), sentAt: 31),
            Fixtures.downloadingEntry(5, sentAt: 40),
        ])
        state.now = 41.8
        state.librarySelection = 3
        state.status = "Sent slow-drip.json (app background)"
        return state
    }

    @Test func notificationList() {
        assertSnapshot(of: frame(listState), as: .frame)
    }

    @Test func notificationListFocusedAtMinimumSize() {
        var state = listState
        state.focus = .notifications
        state.notificationSelection = 1
        assertSnapshot(of: frame(state, size: TUIState.minimumSize), as: .frame)
    }

    @Test func emptyCenter() {
        assertSnapshot(of: frame(Fixtures.state()), as: .frame)
    }

    @Test func detailOfRichNotification() {
        var state = Fixtures.state([Fixtures.entry(1, Fixtures.richResult(), sentAt: 2)])
        state.detailID = 1
        assertSnapshot(of: frame(state), as: .frame)
    }

    @Test func detailOfTimeoutExplainsTheFallback() {
        var state = Fixtures.state([Fixtures.entry(1, Fixtures.timeoutResult(), sentAt: 2)])
        state.detailID = 1
        assertSnapshot(of: frame(state), as: .frame)
    }

    @Test func detailOfRejectedPayload() {
        var state = Fixtures.state([Fixtures.entry(1, Fixtures.rejectedResult(), sentAt: 2)])
        state.detailID = 1
        assertSnapshot(of: frame(state, size: TerminalSize(columns: 80, rows: 24)), as: .frame)
    }

    @Test func helpOverlay() {
        var state = listState
        state.isHelpVisible = true
        assertSnapshot(of: frame(state), as: .frame)
    }

    @Test func tooSmallTerminal() {
        assertSnapshot(of: frame(listState, size: TerminalSize(columns: 50, rows: 12)), as: .frame)
    }

    @Test func foregroundBanner() {
        var state = Fixtures.state([Fixtures.entry(1, Fixtures.foregroundResult(), sentAt: 2)], appState: .foreground)
        state.banner = Banner(
            notificationID: 1, title: "New arrivals", subtitle: "Spring collection", body: "Tap to see what's new",
            until: 6)
        assertSnapshot(of: frame(state), as: .frame)
    }

    @Test func chineseAndEmojiKeepTheirWidth() {
        var result = Fixtures.richResult()
        result.content = NotificationContent(
            title: "新品上市 🎉 春季系列", subtitle: "限时优惠 👍🏽",
            body: "点击查看全部新品，数量有限，先到先得！👨‍👩‍👧 家庭套装 🇯🇵 日本直邮 — 再来一段很长很长的中文文字确保会被截断而不会破坏布局")
        var state = Fixtures.state([
            Fixtures.entry(1, Fixtures.insecureResult(), sentAt: 1), Fixtures.entry(2, result, sentAt: 2),
        ])
        state.library.append("中文/促销 🎁.json")
        state.focus = .notifications
        let list = frame(state)
        assertSnapshot(of: list, as: .frame, named: "list")
        state.detailID = 2
        assertSnapshot(of: frame(state, size: TerminalSize(columns: 70, rows: 30)), as: .frame, named: "detail")
    }

    @Test func hostileTextIsSanitised() {
        var result = Fixtures.insecureResult()
        result.content = NotificationContent(
            title: "Hello\u{1B}[2J\u{1B}[H World",
            subtitle: "\u{1B}]0;pwned title\u{7}sub\u{202E}txet desrever\u{202C}",
            body:
                "line one\r\nline two\rline three\tTabbed\u{0}NUL \u{9B}31mC1\u{1B}P dcs \u{1B}\\ end\u{2066}iso\u{2069}"
        )
        result.fallback = Fallback(.insecureURL, "evil \u{1B}[31mred\u{1B}[0m detail")
        var state = Fixtures.state([Fixtures.entry(1, result, sentAt: 1)])
        state.library.append("evil\u{1B}[2Jname.json")
        let list = frame(state)
        assertSnapshot(of: list, as: .frame, named: "list")
        state.detailID = 1
        let detail = frame(state)
        assertSnapshot(of: detail, as: .frame, named: "detail")
        for grid in [list, detail] {
            let scalars = grid.allScalars
            #expect(!scalars.contains { $0.value < 0x20 || (0x7F..<0xA0).contains($0.value) })
            #expect(!scalars.contains { TextSanitizer.isInvisibleDirectional($0.value) })
        }
    }

    @Test func progressLineCountsDown() {
        var state = listState
        state.focus = .notifications
        state.now = 43.3
        let text = frame(state).text
        #expect(text.contains("downloading 12.3 KB · 1.7 s left of 5 s · 26.7 s left of 30 s budget"))
    }

    @Test func inFlightProgressQuotesTheNotificationsOwnLimits() {
        var entry = Fixtures.downloadingEntry(1, sentAt: 2)
        entry.file = "fallback/extension-expired.json"
        entry.limits = Fixtures.oneSecondBudget
        var state = Fixtures.state([entry])
        state.now = 2.4
        let grid = frame(state)
        #expect(grid.text.contains("downloading 12.3 KB · 9.6 s left of 10 s · 0.6 s left of 1 s budget"))
        assertSnapshot(of: grid, as: .frame)
    }

    @Test func detailOfAnExpiredExtensionQuotesItsOwnBudget() {
        var state = Fixtures.state([Fixtures.entry(1, Fixtures.expiredResult(), sentAt: 2)])
        state.detailID = 1
        let grid = frame(state)
        #expect(grid.text.contains("used up its 1 second"))
        assertSnapshot(of: grid, as: .frame)
    }

    @Test func stacksOfOneThreadCollapsedAndExpanded() {
        var state = Fixtures.state([
            Fixtures.entry(1, Fixtures.threadResult(1, thread: "sale"), sentAt: 1),
            Fixtures.entry(2, Fixtures.threadResult(2, thread: "news"), sentAt: 2),
            Fixtures.entry(3, Fixtures.threadResult(3, thread: nil), sentAt: 3),
            Fixtures.entry(4, Fixtures.threadResult(4, thread: "sale"), sentAt: 4),
            Fixtures.entry(5, Fixtures.threadResult(5, thread: "news"), sentAt: 5),
            Fixtures.entry(6, Fixtures.threadResult(6, thread: "sale"), sentAt: 6),
        ])
        state.focus = .notifications
        let collapsed = frame(state)
        #expect(collapsed.text.contains("+2 more · thread sale"))
        assertSnapshot(of: collapsed, as: .frame, named: "collapsed")
        state.expandedThreads = [.thread("sale")]
        state.notificationSelection = 1
        assertSnapshot(of: frame(state), as: .frame, named: "expanded")
    }
}
