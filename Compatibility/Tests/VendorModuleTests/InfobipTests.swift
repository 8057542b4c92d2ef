import Foundation
import MobileMessagingNotificationExtension
import Testing

/// Infobip 15's example extension.
final class InfobipStyleService: UNNotificationServiceExtension, @unchecked Sendable {
    // @unchecked: iOS calls an extension's methods one at a time; so do these tests.
    var contentHandler: ((UNNotificationContent) -> Void)?
    var originalContent: UNNotificationContent?

    override func didReceive(
        _ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
    ) {
        self.contentHandler = contentHandler
        originalContent = request.content
        let userInfo = request.content.userInfo as? [String: Any] ?? [:]
        if MobileMessagingNotificationServiceExtension.isCorrectPayload(userInfo) {
            MobileMessagingNotificationServiceExtension.didReceive(request, withContentHandler: contentHandler)
        } else {
            contentHandler(request.content)
        }
    }

    override func serviceExtensionTimeWillExpire() {
        MobileMessagingNotificationServiceExtension.serviceExtensionTimeWillExpire()
        if let contentHandler, let originalContent { contentHandler(originalContent) }
    }
}

/// Serialized: as Infobip's, the SDK keeps the handler of one notification at a time, in statics.
@Suite("Infobip 15: MobileMessagingNotificationServiceExtension (MobileMessagingNotificationExtension)", .serialized)
struct InfobipTests {
    static func request(url: String?, messageID: Any = "m-1") -> UNNotificationRequest {
        let content = UNMutableNotificationContent()
        content.title = "Sale"
        content.body = "Everything must go"
        var userInfo: [String: Any] = ["aps": ["alert": "Sale"], "messageId": messageID]
        if let url { userInfo["internalData"] = ["atts": [["url": url], ["url": "http://127.0.0.1:1/other.png"]]] }
        content.userInfo = userInfo
        return UNNotificationRequest(identifier: "infobip-test", content: content)
    }

    @Test("a payload that is no Infobip message is handed back as it came")
    func notInfobip() {
        var calls: [UNNotificationContent] = []
        let request = Self.request(url: "http://127.0.0.1:1/a.png", messageID: 7)
        MobileMessagingNotificationServiceExtension.didReceive(request) { calls.append($0) }
        #expect(calls.count == 1 && calls.first === request.content)
        #expect(!MobileMessagingNotificationServiceExtension.isCorrectPayload(["messageId": "m"]))
    }

    @Test("the first attachment is attached by its URL path's extension; without one there is no image")
    func attaches() async throws {
        for (path, type) in [("/media/a.png", "public.png"), ("/media/a", nil)] {
            let server = try LocalHTTPServer(contentType: "image/png", body: Data(repeating: 1, count: 200))
            let calls = HandlerCalls()
            InfobipStyleService().didReceive(
                Self.request(url: "http://127.0.0.1:\(server.port)\(path)"), withContentHandler: calls.record)
            try await calls.firstCall()
            #expect(calls.all.count == 1, "\(path)")
            #expect(calls.all.first?.attachments.first?.type == type, "\(path)")
            for attachment in calls.all.first?.attachments ?? [] {
                try? FileManager.default.removeItem(at: attachment.url)
            }
            withExtendedLifetime(server) {}
        }
    }

    @Test("after serviceExtensionTimeWillExpire the SDK never calls the handler: the extension's own call is the one")
    func expiry() async throws {
        for expires in [false, true] {
            let server = try SilentServer()
            let sdkCalls = HandlerCalls()
            MobileMessagingNotificationServiceExtension.didReceive(
                Self.request(url: "http://127.0.0.1:\(server.port)/a.png"), withContentHandler: sdkCalls.record)
            try await Task.sleep(for: .milliseconds(200))
            if expires { MobileMessagingNotificationServiceExtension.serviceExtensionTimeWillExpire() }
            // The download fails now: the SDK would call the handler with the original content.
            server.close()
            try await Task.sleep(for: .seconds(1))
            #expect(sdkCalls.all.count == (expires ? 0 : 1), "expires: \(expires)")
        }
    }
}
