import RichPushCore
import Testing

@testable import RichPushTUI

/// The phone's state in the notification center: the header keys, what a delivery that is not a banner looks like,
/// and the Scheduled Summary.
@Suite struct PhoneStateTests {
    /// A delivered notification as the phone let it through (`kind`, drawn in `shownIn`), with a relevance score.
    private func result(
        _ kind: PresentedDelivery.Kind, shownIn: [NotificationView], score: Double? = nil, title: String = "Sale",
        appState: AppState = .background
    ) -> DeliveryResult {
        var result = Fixtures.richResult(file: "payloads/\(title).json")
        result.appState = appState
        result.content = NotificationContent(title: title, body: "\(title) body")
        result.relevanceScore = score
        var presentation = NotificationPresentation(views: [])
        presentation.delivery = PresentedDelivery(
            kind: kind, reason: "the reason for \(kind.rawValue)", level: .active, screenLit: false,
            screenReason: "screen reason", sound: false, soundReason: "sound reason", shownIn: shownIn)
        result.presentation = presentation
        return result
    }

    /// Sends the selected payload and finishes its delivery with `result`; returns the notification's id.
    @discardableResult
    private func deliver(_ result: DeliveryResult, _ state: inout TUIState) -> Int {
        let id = state.nextID
        _ = reduce(&state, .activate)
        _ = reduce(&state, .deliveryFinished(id: id, result))
        return id
    }

    @Test func headerKeysChangeThePhone() {
        var state = Fixtures.state()
        #expect(state.phone == .newPhone)
        _ = reduce(&state, KeyBindings.action(for: .character("L"))!)
        #expect(state.phone.locked)
        var focuses: [DeviceState.Focus] = []
        for _ in 0..<3 {
            _ = reduce(&state, KeyBindings.action(for: .character("F"))!)
            focuses.append(state.phone.focus)
        }
        #expect(focuses == [.on, .onAllowingApp, .off])
        _ = reduce(&state, KeyBindings.action(for: .character("M"))!)
        #expect(state.phone.summary)
        _ = reduce(&state, KeyBindings.action(for: .character("S"))!)
        #expect(state.phone.silent)
        #expect(PhoneText.words(state.phone) == "LOCKED · SUMMARY · SILENT")
        _ = reduce(&state, KeyBindings.action(for: .character("L"))!)
        #expect(!state.phone.locked)
        #expect(state.appState == .background, "the phone's keys leave the app state alone")
    }

    @Test func aPayloadIsSentOnThePhoneOnScreen() {
        var state = Fixtures.state()
        _ = reduce(&state, .cycleFocus)
        _ = reduce(&state, .toggleSummary)
        let effects = reduce(&state, .activate)
        var phone = DeviceState.newPhone
        phone.focus = .on
        phone.summary = true
        #expect(effects == [.deliver(id: 1, file: Fixtures.library[0], appState: .background, device: phone)])
    }

    @Test func aNotificationHeldByFocusIsNoBanner() {
        var state = Fixtures.state()
        let id = deliver(result(.heldByFocus, shownIn: [.lockScreen]), &state)
        #expect(state.banner == nil)
        let entry = state.notifications.first { $0.id == id }!
        #expect(PhoneText.rowWord(of: entry) == "held: Focus")
        let lines = DetailContent(entry: entry, configuredLimits: Fixtures.configuredLimits, timeOfDay: 0)
            .lines(width: 100).map(\.text)
        #expect(lines.contains { $0.contains("held by Focus") })
        #expect(lines.contains { $0.contains("the reason for heldByFocus") })
        #expect(lines.contains { $0.contains("Sound") && $0.contains("sound reason") })
        #expect(lines.contains { $0.contains("Breaks") })
    }

    @Test func aBannerOnlyWhereThePhoneDrawsOne() {
        var state = Fixtures.state()
        deliver(result(.immediate, shownIn: [.banner, .lockScreen]), &state)
        #expect(state.banner != nil, "unlocked, nothing holding it back: a banner, app in the background too")
        #expect(state.banner?.inForeground == false)
        state.banner = nil
        deliver(result(.immediate, shownIn: [.lockScreen]), &state)
        #expect(state.banner == nil, "locked: the lock screen, no banner")
        deliver(result(.quiet, shownIn: [.lockScreen]), &state)
        #expect(state.banner == nil)
        #expect(PhoneText.rowWord(of: state.notifications[0]) == "quiet")
        deliver(result(.foregroundOptions, shownIn: [], appState: .foreground), &state)
        #expect(state.banner == nil, "the foreground without willPresent's .banner shows nothing")
        #expect(PhoneText.rowWord(of: state.notifications[0]) == "foreground: no banner")
        deliver(result(.foregroundOptions, shownIn: [.banner], appState: .foreground), &state)
        #expect(state.banner?.inForeground == true)
    }

    @Test func theSummaryFeaturesTheHighestRelevanceAndEmptiesWhenDelivered() {
        var state = Fixtures.state()
        _ = reduce(&state, .toggleSummary)
        let low = deliver(result(.scheduledSummary, shownIn: [], score: 0.2, title: "Low"), &state)
        let none = deliver(result(.scheduledSummary, shownIn: [], title: "None"), &state)
        let high = deliver(result(.scheduledSummary, shownIn: [], score: 0.9, title: "High"), &state)
        let tie = deliver(result(.scheduledSummary, shownIn: [], score: 0.2, title: "Tie"), &state)
        deliver(result(.immediate, shownIn: [.banner, .lockScreen], title: "Urgent"), &state)
        #expect(state.banner?.title == "Urgent", "what overrides the summary still gets its banner")
        #expect(state.summaryWaiting.count == 4)
        #expect(PhoneText.rowWord(of: state.notifications.first { $0.id == high }!) == "in summary")

        _ = reduce(&state, KeyBindings.action(for: .character("D"))!)
        #expect(state.openSummary?.ids == [high, low, tie, none], "highest first, ties by arrival, no score last")
        #expect(state.summaryWaiting.isEmpty, "delivering the summary empties it")
        #expect(PhoneText.rowWord(of: state.notifications.first { $0.id == high }!) == "from summary")

        let frame = render(state, size: Fixtures.size).text
        #expect(frame.contains("★ High"))
        #expect(frame.contains("Scheduled Summary · 4 notifications"))
        let lines = frame.split(separator: "\n")
        let order = ["★ High", "· Low", "· Tie", "· None"].map { marker in lines.firstIndex { $0.contains(marker) } }
        #expect(order.allSatisfy { $0 != nil } && order == order.sorted { ($0 ?? 0) < ($1 ?? 0) })

        _ = reduce(&state, .back)
        #expect(state.openSummary == nil)
        _ = reduce(&state, .deliverSummary)
        #expect(state.openSummary == nil, "an empty summary delivers nothing")
    }

    @Test func theHeaderShowsThePhoneAndTheSummaryCount() {
        var state = Fixtures.state()
        #expect(render(state, size: Fixtures.size).text.contains("Phone: unlocked (L/F/M/S/D)"))
        _ = reduce(&state, .cycleFocus)
        _ = reduce(&state, .toggleSummary)
        deliver(result(.scheduledSummary, shownIn: [], score: 0.5), &state)
        #expect(render(state, size: Fixtures.size).text.contains("Phone: FOCUS · SUMMARY · summary 1"))
    }

    @Test func aButtonThatNeedsTheUnlockedPhoneSaysItUnlockedFirst() {
        let response = NotificationResponse(
            actionIdentifier: "cancel", opensApp: false, unlockedFirst: true, requestIdentifier: "1",
            categoryIdentifier: "order", content: NotificationContent(title: "T"))
        #expect(ResponseText.received(response).hasPrefix("Unlocked, then the app received: cancel"))
        var plain = response
        plain.unlockedFirst = false
        #expect(ResponseText.received(plain).hasPrefix("App received: cancel"))
    }
}
