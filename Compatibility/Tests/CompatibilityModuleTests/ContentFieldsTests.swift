import Foundation
import RichPushHostProtocol
import Testing
import UserNotifications

@Suite("A content's fields, once: every property an extension sets reaches richpush")
struct ContentFieldsTests {
    /// A content with every property an extension can set changed from its default, through iOS's API.
    static func everyPropertySet() throws -> UNMutableNotificationContent {
        let content = UNMutableNotificationContent()
        content.title = "Title"
        content.subtitle = "Subtitle"
        content.body = "Body"
        content.badge = 7
        content.sound = .criticalSoundNamed(UNNotificationSoundName("alarm.caf"), withAudioVolume: 0.5)
        content.userInfo = ["k": "v"]
        content.threadIdentifier = "thread"
        content.categoryIdentifier = "order"
        content.targetContentIdentifier = "target"
        content.interruptionLevel = .timeSensitive
        content.relevanceScore = 0.75
        content.filterCriteria = "work"
        content.summaryArgument = "Ann"
        content.summaryArgumentCount = 2
        content.launchImageName = "Launch"
        return content
    }

    @Test("a content stores its plain fields in the host protocol's HostContent and nowhere else")
    func storage() throws {
        let content = try Self.everyPropertySet()
        // A member added beside these is a property that would never reach richpush's result.
        var mirror: Mirror? = Mirror(reflecting: content)
        var stored: [String: Any] = [:]
        while let current = mirror {
            for child in current.children { stored[child.label ?? "?"] = child.value }
            mirror = current.superclassMirror
        }
        #expect(stored.keys.sorted() == ["fields"], "UNNotificationContent keeps state outside its fields")
        let fields = try #require(stored["fields"])
        let members = Mirror(reflecting: fields).children.compactMap(\.label)
        #expect(members == ["plain", "userInfo", "attachments", "communication", "origin"])
    }

    @Test("every field of HostContent set by the extension comes back in the description richpush reads")
    func everyField() throws {
        let store = FileManager.default.temporaryDirectory.appendingPathComponent("richpush-fields-\(UUID())")
        try FileManager.default.createDirectory(at: store, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: store) }
        let content = try Self.everyPropertySet()
        let file = store.appendingPathComponent("a.png")
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0]).write(to: file)
        content.attachments = [
            try UNNotificationAttachment(
                identifier: "image", url: file,
                options: [
                    UNNotificationAttachmentOptionsThumbnailHiddenKey: true,
                    UNNotificationAttachmentOptionsThumbnailClippingRectKey: [
                        "X": 0.0, "Y": 0.25, "Width": 1.0, "Height": 0.5,
                    ],
                    UNNotificationAttachmentOptionsThumbnailTimeKey: ["value": 30, "timescale": 10],
                ])
        ]
        let described = content._describe()
        #expect(described.sound == HostSound(name: "alarm.caf", critical: true, volume: 0.5))
        #expect(described.interruptionLevel == "time-sensitive")
        #expect(described.relevanceScore == 0.75)
        #expect(described.targetContentIdentifier == "target")
        #expect(described.attachments.first?.options.thumbnailHidden == true)
        #expect(described.attachments.first?.options.thumbnailClippingRect == [0, 0.25, 1, 0.5])
        #expect(described.attachments.first?.options.thumbnailTime == 3)
        // Each field differs from a new content's: a field added to HostContent that the API cannot set (or that
        // this test does not set) fails here. The communication is set by `updating(from:)` (IntentsTests).
        let fresh = Mirror(reflecting: HostContent())
        for (child, empty) in zip(Mirror(reflecting: described).children, fresh.children)
        where child.label != "communication" {
            #expect(
                "\(child.value)" != "\(empty.value)", "\(child.label ?? "?") is not carried: \(child.value)")
        }
    }

    @Test("each interruption level is the payload's word for it, both ways; another word is active")
    func interruptionLevels() {
        let words = [
            "passive": UNNotificationInterruptionLevel.passive, "active": .active,
            "time-sensitive": .timeSensitive, "critical": .critical,
        ]
        for (word, level) in words {
            let content = UNMutableNotificationContent(HostContent(interruptionLevel: word), userInfo: [:], origin: "r")
            #expect(content.interruptionLevel == level, "\(word)")
            content.interruptionLevel = level
            #expect(content._describe().interruptionLevel == word)
        }
        #expect(
            UNNotificationContent(HostContent(interruptionLevel: "time-senstive"), userInfo: [:], origin: "r")
                .interruptionLevel == .active)
    }

    @Test("a content says which request it was made from, through every copy and edit; a new one says none")
    func origin() throws {
        let received = UNNotificationContent(HostContent(title: "T"), userInfo: ["a": 1], origin: "request-1")
        let request = UNNotificationRequest(identifier: "request-1", content: received)
        let copy = try #require(request.content.mutableCopy() as? UNMutableNotificationContent)
        copy.userInfo = ["changed": true]
        copy.title = "Edited"
        #expect(copy._origin == "request-1")
        #expect((copy.copy() as? UNNotificationContent)?._origin == "request-1")
        #expect(UNMutableNotificationContent()._origin == nil)
        // Two requests with the same payload stay apart.
        let twin = UNNotificationContent(HostContent(title: "T"), userInfo: ["a": 1], origin: "request-2")
        #expect(twin._origin == "request-2")
    }

    @Test("a vendor's report is about the request whose code runs on the thread, whatever payload it names")
    func reportsFollowTheServingRequest() {
        #expect(RichPushHostChannel.request(owning: ["a": 1]) == nil)
        RichPushHostChannel.serving("request-7") {
            #expect(RichPushHostChannel.request(owning: ["another": "payload"]) == "request-7")
            RichPushHostChannel.serving("request-8") {
                #expect(RichPushHostChannel.request(owning: [:]) == "request-8")
            }
            #expect(RichPushHostChannel.servingRequest == "request-7")
        }
        #expect(RichPushHostChannel.servingRequest == nil)
    }
}
