import Foundation
import RichPushTestSupport
import Testing

/// `UNUserNotificationCenter.current()` from a team's extension, through the real binary and the real compiler: what a
/// user sees in the replay (a removed notification named on its remover, the badge), and that an extension that
/// floods the center or lies to it changes nothing but its own notification.
@Suite("UNUserNotificationCenter from a team's extension", .serialized)
struct NotificationCenterExtensionTests {
    @Test("examples/extensions/chat-replace: the second message removes the first's notification and sets the badge")
    func chatReplace() async throws {
        let replay = try await ExtensionProcessModeTests().example(
            "chat-replace", mode: "each", extra: ["--jobs", "1"])
        #expect(replay.run.status == 0, "\(replay.run.stdout)\(replay.run.stderr)")
        try #require(replay.results.count == 3)
        let second = replay.events(1).filter { $0.event == "notificationCenter" }.map(\.detail)
        #expect(
            second.contains {
                $0.hasPrefix(
                    "removeDeliveredNotifications: removed delivered notification payloads/extensions/chat-replace/message-1.json ("
                )
            }, "\(second)")
        let badges = replay.results.map { ($0["presentation"] as? [String: Any])?["appBadge"] as? Int }
        #expect(badges == [1, 1, 2])
        let removed = replay.results.map {
            ($0["notificationCenter"] as? [String: Any])?["removed"] as? [String] ?? ["?"]
        }
        #expect(removed == [[], ["payloads/extensions/chat-replace/message-1.json"], []])
    }

    static let hostile = """
        import UserNotifications
        class NotificationService: UNNotificationServiceExtension {
            override func didReceive(_ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void) {
                let center = UNUserNotificationCenter.current()
                center.removeDeliveredNotifications(withIdentifiers: (0..<5_000).map { "no-such-\\($0)" })
                for _ in 0..<200 { center.getNotificationSettings { _ in } }
                center.setBadgeCount(-3) { error in
                    print("badge error: \\(error.map { "\\($0)" } ?? "none")")
                    center.getDeliveredNotifications { delivered in
                        print("delivered after flooding: \\(delivered.count)")
                        contentHandler(request.content)
                    }
                }
            }
        }
        """

    @Test("a hostile extension: wrong ids remove nothing, a flood is answered and counted, its handler still runs")
    func hostile() async throws {
        let payloads = ["a": ExtensionProcessModeTests.payload("A")]
        let replay = try await ExtensionProcessModeTests().replay(Self.hostile, payloads: payloads, mode: "each")
        try #require(replay.results.count == 1)
        let result = replay.results[0]
        #expect(result["contentHandlerCalls"] as? Int == 1, "\(result["extensionLog"] ?? "")")
        let log = result["extensionLog"] as? [String] ?? []
        #expect(log.contains { $0.hasPrefix("badge error: UNError.badgeInputInvalid") }, "\(log)")
        // 64 calls are carried out, the rest (the flood, the badge and the lookup past it) are answered with an error.
        #expect(log.contains { $0.contains("more notification center calls not carried out (at most 64") }, "\(log)")
        #expect(log.contains("delivered after flooding: 0"), "\(log)")
        #expect(log.contains { $0.contains("named 5000 identifiers; the first 256 were read") }, "\(log)")
        let center = replay.events(0).filter { $0.event == "notificationCenter" }.map(\.detail)
        #expect(center.first?.hasPrefix("removeDeliveredNotifications: removed nothing; 256 identifiers") == true)
        #expect((result["presentation"] as? [String: Any])?["appBadge"] as? Int == 0)
    }

    static let tour = """
        import UserNotifications
        class NotificationService: UNNotificationServiceExtension {
            override func didReceive(_ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void) {
                let center = UNUserNotificationCenter.current()
                if request.content.title == "A" {
                    let reply = UNTextInputNotificationAction(identifier: "reply", title: "Reply", options: [], textInputButtonTitle: "Send", textInputPlaceholder: "Message")
                    center.setNotificationCategories([UNNotificationCategory(identifier: "chat", actions: [reply], intentIdentifiers: [], options: [])])
                    let local = UNMutableNotificationContent()
                    local.title = "Reminder"
                    local.body = "Call Ann back"
                    center.add(UNNotificationRequest(identifier: "reminder", content: local, trigger: nil)) { error in
                        center.getNotificationSettings { settings in
                            print("provisional: \\(settings.authorizationStatus == .provisional), alerts: \\(settings.alertSetting == .disabled ? "off" : "on")")
                            contentHandler(request.content)
                        }
                    }
                } else {
                    Task {
                        let delivered = await center.deliveredNotifications()
                        print("delivered: " + delivered.map { $0.request.content.title }.sorted().joined(separator: ","))
                        let categories = await center.notificationCategories()
                        print("categories: " + categories.map { $0.identifier }.sorted().joined(separator: ","))
                        contentHandler(request.content)
                    }
                }
            }
        }
        """

    @Test("categories, a local notification and the settings: what one extension registers and adds, the next sees")
    func tour() async throws {
        let payloads = [
            "a": ExtensionProcessModeTests.payload("A"),
            "b": #"{"aps":{"alert":{"title":"B","body":"b"},"category":"chat","mutable-content":1}}"#,
        ]
        let replay = try await ExtensionProcessModeTests().replay(
            Self.tour, payloads: payloads, mode: "each", arguments: ["--jobs", "1", "--provisional"])
        try #require(replay.results.count == 2)
        let a = replay.results[0]
        let b = replay.results[1]
        let center = a["notificationCenter"] as? [String: Any] ?? [:]
        #expect(center["categoriesRegistered"] as? [String] == ["chat"] && center["added"] as? [String] == ["reminder"])
        #expect(
            replay.events(0).contains {
                $0.event == "notificationCenter" && $0.detail.hasPrefix("local notification \"reminder\" presented")
            })
        #expect((a["extensionLog"] as? [String] ?? []).contains("provisional: true, alerts: off"), "\(a)")
        let log = b["extensionLog"] as? [String] ?? []
        #expect(log.contains("delivered: A,Reminder") && log.contains("categories: chat"), "\(log)")
        let category = (b["presentation"] as? [String: Any])?["category"] as? [String: Any]
        #expect(category?["registered"] as? Bool == true, "the category the extension registered is the app's now")
    }
}
