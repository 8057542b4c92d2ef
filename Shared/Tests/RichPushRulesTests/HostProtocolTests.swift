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
