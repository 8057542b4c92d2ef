import RichPushCore
import Testing

/// The phone's state: `given.device`, Show Previews, the foreground options, provisional delivery, Focus filters and
/// the payload lints.
@Suite struct PhoneStateTests {
    static let categories = AppCategories(categories: [
        NotificationCategory(
            identifier: "order", hiddenPreviewsBodyPlaceholder: "%u new orders", options: [.hiddenPreviewsShowTitle])
    ])

    static func result(level: String? = nil, appState: AppState = .background, filter: String? = nil) -> DeliveryResult
    {
        var result = DeliveryResult(
            file: "a.json", appState: appState, style: .plain,
            content: NotificationContent(title: "Order 42", subtitle: "Shop", body: "Shipped today"))
        result.category = "order"
        result.requested = HostContent(
            title: "Order 42", body: "Shipped today", sound: HostSound(), categoryIdentifier: "order",
            interruptionLevel: level, filterCriteria: filter)
        return result
    }

    @Test func givenDeviceChangesOnlyTheKeysItGives() throws {
        var base = DeviceState.newPhone
        base.capabilities = [.critical]
        let state = try DeviceState.parse(
            .object(["locked": .bool(true), "focus": .string("on-allowing-app"), "summary": .string("on")]), over: base)
        #expect(state.locked && state.summary && state.focus == .onAllowingApp)
        #expect(state.capabilities == [.critical])
        #expect(state.previews == .whenUnlocked)
    }

    @Test(
        arguments: [
            (#"{"focus": "sleep"}"#, "given.device.focus must be one of \"off\", \"on\", \"on-allowing-app\""),
            (#"{"locked": "yes"}"#, "given.device.locked must be true or false"),
            (#"{"mode": 1}"#, "unknown key \"given.device.mode\""),
            (#"{"capabilities": ["vip"]}"#, "given.device.capabilities holds \"vip\""),
        ])
    func aBadDeviceNamesTheKey(json: String, problem: String) throws {
        let value = try JSONParser.parse(Array(json.utf8))
        do {
            _ = try DeviceState.parse(value)
            Issue.record("accepted \(json)")
        } catch {
            #expect(error.message.contains(problem), "\(error.message)")
        }
    }

    @Test func hiddenPreviewsShowThePlaceholderWithTheThreadCountAndTheTitleTheCategoryKeeps() throws {
        let device = DeviceState(locked: true, previews: .whenUnlocked)
        let presentation = try #require(
            NotificationPresentation(of: Self.result(), categories: Self.categories, device: device, threadCount: 3))
        let lock = try #require(presentation.view(.lockScreen))
        #expect(lock.body.visible == "3 new orders")
        #expect(lock.title.visible == "Order 42")
        #expect(lock.subtitle.visible == "")
        #expect(presentation.view(.expanded)?.body.visible == "Shipped today")

        // Without hiddenPreviewsShowTitle the title goes too; without a placeholder the system's shows.
        let bare = AppCategories(categories: [NotificationCategory(identifier: "order")])
        let never = try #require(
            NotificationPresentation(of: Self.result(), categories: bare, device: DeviceState(previews: .never)))
        #expect(never.view(.banner)?.title.visible == "")
        #expect(never.view(.banner)?.body.visible == PreviewRules.systemPlaceholder)
        // Unlocked with "When Unlocked": shown.
        let unlocked = try #require(NotificationPresentation(of: Self.result(), categories: Self.categories))
        #expect(unlocked.view(.lockScreen)?.body.visible == "Shipped today")
        #expect(unlocked.previewsHidden == nil)
    }

    @Test func inTheForegroundOnlyWhatWillPresentReturnsIsShown() throws {
        let nothing = try #require(
            NotificationPresentation(of: Self.result(appState: .foreground), categories: nil)?.delivery)
        #expect(nothing.kind == .foregroundOptions)
        #expect(nothing.shownIn.isEmpty)
        let banner = try #require(
            NotificationPresentation(
                of: Self.result(appState: .foreground), categories: nil,
                device: DeviceState(foregroundOptions: [.banner, .sound]))?.delivery)
        #expect(banner.shownIn == [.banner])
        #expect(banner.sound)
    }

    @Test func provisionalDeliversQuietly() throws {
        let delivery = try #require(
            NotificationPresentation(
                of: Self.result(level: "time-sensitive"), categories: nil,
                device: DeviceState(provisional: true, capabilities: [.timeSensitive]))?.delivery)
        #expect(delivery.kind == .quiet)
        #expect(!delivery.sound && !delivery.screenLit)
    }

    @Test func theAppsFocusFilterDecidesForAnAllowedApp() throws {
        let device = DeviceState(focus: .onAllowingApp, focusFilter: ["work"])
        let work = try #require(
            NotificationPresentation(of: Self.result(filter: "work"), categories: nil, device: device)?.delivery)
        #expect(work.kind == .immediate)
        let home = try #require(
            NotificationPresentation(of: Self.result(filter: "home"), categories: nil, device: device)?.delivery)
        #expect(home.kind == .heldByFocus)
        #expect(home.reason.contains("\"home\""))
    }

    @Test func lints() {
        func sentences(_ aps: String, priority: Int? = nil) throws -> [String] {
            let request = try PayloadDecoder().decode(Array(#"{"aps": \#(aps)}"#.utf8))
            return PhoneLints.sentences(for: request, priority: priority)
        }
        #expect(
            (try? sentences(#"{"alert": "a", "interruption-level": "time-senstive"}"#))?.first?.contains(
                "did you mean \"time-sensitive\"?") == true)
        #expect(
            (try? sentences(#"{"alert": "a", "interruption-level": "loud"}"#))?.first?.contains(
                "(passive, active, time-sensitive, critical)") == true)
        #expect((try? sentences(#"{"alert": "a", "relevance-score": 2}"#))?.first?.contains("clamped to 1") == true)
        #expect((try? sentences(#"{"alert": {"body": "a", "summary-arg": "x"}}"#))?.first?.contains("iOS 15") == true)
        #expect(
            (try? sentences(#"{"alert": "a", "content-available": 1}"#, priority: 5))?.first?.contains("priority 10")
                == true)
        #expect((try? sentences(#"{"alert": "a", "content-available": 1}"#, priority: 10)) == [])
        #expect((try? sentences(#"{"alert": "a", "interruption-level": "passive", "relevance-score": 0.5}"#)) == [])
    }

    @Test func theBadgeIsSetByTheLastBadgeAndClearedByZero() throws {
        var result = Self.result()
        result.badge = 5
        #expect(NotificationPresentation(of: result, categories: nil, badgeBefore: 2)?.appBadge == 5)
        result.badge = nil
        #expect(NotificationPresentation(of: result, categories: nil, badgeBefore: 5)?.appBadge == 5)
        result.badge = 0
        #expect(NotificationPresentation(of: result, categories: nil, badgeBefore: 5)?.appBadge == 0)
        // In the foreground only willPresent's .badge lets it change.
        var foreground = Self.result(appState: .foreground)
        foreground.badge = 9
        #expect(NotificationPresentation(of: foreground, categories: nil, badgeBefore: 1)?.appBadge == 1)
        #expect(
            NotificationPresentation(
                of: foreground, categories: nil, device: DeviceState(foregroundOptions: [.badge]), badgeBefore: 1)?
                .appBadge == 9)
    }
}
