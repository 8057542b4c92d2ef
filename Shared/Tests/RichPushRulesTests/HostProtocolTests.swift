import Foundation
import RichPushHostProtocol
import Testing

@Suite("The host protocol, one definition for both sides")
struct HostProtocolTests {
    @Test("every message survives a line and back")
    func roundTrip() throws {
        let commands: [HostCommand] = [
            .start, .expire(id: "a"),
            .request(HostRequest(id: "a", content: HostContent(title: "T\nline", badge: 3), userInfo: #"{"aps":{}}"#)),
        ]
        for command in commands {
            let line = HostProtocol.line(command)
            #expect(!line.contains("\n"))
            #expect(HostProtocol.decode(HostCommand.self, from: line) == command)
        }
        let events: [HostEvent] = [
            .hello(protocolVersion: HostProtocol.version), .ready, .error(detail: "x"),
            .contentHandler(
                id: "a", call: 2,
                content: HostContent(attachments: [.init(identifier: "", file: "/f", type: "public.png")])),
            .attachmentFailed(id: nil, identifier: "i", url: "file:///x", error: "UNError.attachmentInvalidURL"),
        ]
        for event in events {
            #expect(HostProtocol.decode(HostEvent.self, from: HostProtocol.line(event)) == event)
        }
    }

    @Test("a line that is no message is nothing, not a crash")
    func garbage() {
        for line in ["", "{}", "null", #"{"event":"nope"}"#, #"{"event":"contentHandler"}"#, "\u{0}"] {
            #expect(HostProtocol.decode(HostEvent.self, from: line) == nil, "\(line)")
        }
    }
}
