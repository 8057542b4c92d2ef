import Foundation
import RichPushHostProtocol
import RichPushRules
import Testing

@Suite("The host protocol, one definition for both sides")
struct HostProtocolTests {
    /// A content with every field set to something other than its default.
    static let everyField = HostContent(
        title: "T\nline", subtitle: "S", body: "B", badge: 3,
        sound: HostSound(name: "alarm.caf", critical: true, volume: 0.5), threadIdentifier: "thread",
        categoryIdentifier: "order", targetContentIdentifier: "target", interruptionLevel: "time-sensitive",
        relevanceScore: 0.75, filterCriteria: "work", summaryArgument: "Ann", summaryArgumentCount: 2,
        launchImageName: "Launch",
        attachments: [
            .init(
                identifier: "image", file: "/f", type: "public.png",
                options: .init(
                    typeHint: "public.png", thumbnailHidden: true, thumbnailClippingRect: [0, 0.25, 1, 0.5],
                    thumbnailTime: 2))
        ],
        communication: HostCommunication(senderName: "Ann", senderHandle: "ann@example.com"))

    @Test("every message survives a line and back")
    func roundTrip() throws {
        let commands: [HostCommand] = [
            .start, .expire(id: "a"),
            .request(HostRequest(id: "a", content: Self.everyField, userInfo: #"{"aps":{}}"#)),
        ]
        for command in commands {
            let line = try HostProtocol.line(command)
            #expect(!line.contains("\n"))
            #expect(HostProtocol.decode(HostCommand.self, from: line) == command)
        }
        let events: [HostEvent] = [
            .hello(protocolVersion: HostProtocol.version), .ready, .error(detail: "x"),
            .contentHandler(id: "a", call: 2, content: Self.everyField, contentOf: "b", calledFrom: "c"),
            .attachmentFailed(id: nil, identifier: "i", url: "file:///x", error: "UNError.attachmentInvalidURL"),
            .imageFailed(id: "a", vendor: "OneSignal", reason: .httpStatus, detail: "404"),
        ]
        for event in events {
            #expect(HostProtocol.decode(HostEvent.self, from: try HostProtocol.line(event)) == event)
        }
    }

    @Test("a notification center call and its answer survive a line and back, with the same serial")
    func centerRoundTrip() throws {
        let calls: [HostCenterCall] = [
            .init(.getDelivered), .init(.removeDelivered, identifiers: ["a", "b"]), .init(.removeAllDelivered),
            .init(
                .setCategories,
                categories: [
                    HostCategory(
                        identifier: "chat",
                        actions: [
                            HostAction(
                                identifier: "reply", title: "Reply", options: ["foreground"],
                                textInputButtonTitle: "Send", textInputPlaceholder: "Message")
                        ], options: ["hiddenPreviewsShowTitle"])
                ]),
            .init(.getCategories), .init(.getSettings), .init(.setBadgeCount, badge: 3),
            .init(.add, request: HostLocalRequest(identifier: "local", content: HostContent(title: "Hi"))),
        ]
        for (serial, call) in calls.enumerated() {
            let event = HostEvent.center(serial: serial, id: serial.isMultiple(of: 2) ? "a" : nil, call: call)
            #expect(HostProtocol.decode(HostEvent.self, from: try HostProtocol.line(event)) == event)
        }
        let answer = HostCommand.answer(
            serial: 7,
            HostCenterAnswer(
                delivered: [HostDeliveredNotification(identifier: "n1", content: Self.everyField, date: 1.5)],
                settings: HostNotificationSettings(
                    authorizationStatus: "authorized", alertSetting: "enabled", badgeSetting: "enabled",
                    soundSetting: "enabled", lockScreenSetting: "enabled", notificationCenterSetting: "enabled",
                    criticalAlertSetting: "notSupported", timeSensitiveSetting: "enabled",
                    directMessagesSetting: "notSupported", scheduledDeliverySetting: "disabled",
                    showPreviewsSetting: "always", alertStyle: "banner")))
        #expect(HostProtocol.decode(HostCommand.self, from: try HostProtocol.line(answer)) == answer)
        #expect(HostProtocol.version == 5)
    }

    @Test("a notification center call the protocol does not name is no message")
    func unknownCenterCall() {
        let line = #"{"event":"center","serial":1,"method":{"kind":"requestAuthorization"}}"#
        #expect(HostProtocol.decode(HostEvent.self, from: line) == nil)
        let noSerial = #"{"event":"center","method":{"kind":"getDelivered"}}"#
        #expect(HostProtocol.decode(HostEvent.self, from: noSerial) == nil)
    }

    @Test("a line that is no message is nothing, not a crash")
    func garbage() {
        for line in ["", "{}", "null", #"{"event":"nope"}"#, #"{"event":"contentHandler"}"#, "\u{0}"] {
            #expect(HostProtocol.decode(HostEvent.self, from: line) == nil, "\(line)")
        }
    }

    @Test("a fallback reason outside the contract is no message, never another reason")
    func unknownReason() {
        let line = #"{"event":"imageFailed","vendor":"X","reason":"gremlins","detail":"d"}"#
        #expect(HostProtocol.decode(HostEvent.self, from: line) == nil)
        let known = #"{"event":"imageFailed","vendor":"X","reason":"timeout","detail":"d"}"#
        #expect(
            HostProtocol.decode(HostEvent.self, from: known)
                == .imageFailed(id: nil, vendor: "X", reason: .timeout, detail: "d"))
    }

    @Test("a message without a JSON form throws, never goes out as something else")
    func unencodable() {
        var content = HostContent(title: "t")
        content.relevanceScore = .nan
        #expect(throws: HostProtocol.EncodingFailure.self) {
            try HostProtocol.line(HostEvent.contentHandler(id: "a", call: 1, content: content))
        }
    }
}
