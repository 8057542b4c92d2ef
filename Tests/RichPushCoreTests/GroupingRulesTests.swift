import RichPushCore
import Testing

@Suite("Notification Grouping and the lock screen's Display As")
struct GroupingRulesTests {
    @Test("automatic groups by thread-id and the rest as the app's; by app groups all; off groups none")
    func groups() {
        #expect(GroupingRules.group(threadIdentifier: "chat", grouping: .automatic) == .thread("chat"))
        #expect(GroupingRules.group(threadIdentifier: "", grouping: .automatic) == .app)
        #expect(GroupingRules.group(threadIdentifier: "chat", grouping: .byApp) == .app)
        #expect(GroupingRules.group(threadIdentifier: "chat", grouping: .off) == nil)
    }

    @Test("the result says the group and the setting; only the app's automatic group is drawn one by one")
    func inTheResult() throws {
        var result = DeliveryResult(
            file: "a.json", appState: .background, style: .plain, content: NotificationContent(title: "t"))
        result.threadID = "chat"
        var device = DeviceState.newPhone
        device.lockScreen = .count
        let threaded = try #require(NotificationPresentation(of: result, categories: nil, device: device))
        #expect(threaded.jsonValue["group"] == ["by": "thread", "thread": "chat"])
        #expect(threaded.jsonValue["lockScreenDisplay"] == "count")
        #expect(threaded.drawnStack == .thread("chat"))
        result.threadID = nil
        let alone = try #require(NotificationPresentation(of: result, categories: nil, device: device))
        #expect(alone.group == .app && alone.drawnStack == nil)
        device.grouping = .byApp
        #expect(NotificationPresentation(of: result, categories: nil, device: device)?.drawnStack == .app)
    }
}
