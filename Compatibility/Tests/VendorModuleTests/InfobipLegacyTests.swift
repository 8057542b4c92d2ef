import Foundation
import MobileMessaging
import Testing

/// Infobip's example extension up to 14.x (`import MobileMessaging`), with its logger.
final class InfobipLegacyService: UNNotificationServiceExtension, @unchecked Sendable {
    // @unchecked: iOS calls an extension's methods one at a time; so do these tests.
    var contentHandler: ((UNNotificationContent) -> Void)?
    var originalContent: UNNotificationContent?

    override func didReceive(
        _ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
    ) {
        self.contentHandler = contentHandler
        originalContent = request.content
        if MM_MTMessage.isCorrectPayload(request.content.userInfo) {
            MobileMessaging.logger = MMLumberjackLogger(logOutput: MMLogOutput.Console, logLevel: MMLogLevel.Off)
            MobileMessagingNotificationServiceExtension.didReceive(request, withContentHandler: contentHandler)
        }
    }

    override func serviceExtensionTimeWillExpire() {
        MobileMessagingNotificationServiceExtension.serviceExtensionTimeWillExpire()
        if let originalContent { contentHandler?(originalContent) }
    }
}

@Suite("Infobip up to 14.x: MobileMessagingNotificationServiceExtension (MobileMessaging)")
struct InfobipLegacyTests {
    @Test("an Infobip message's first attachment is attached; a message without messageId is not recognised")
    func attaches() async throws {
        let server = try LocalHTTPServer(contentType: "text/html", body: Data(repeating: 1, count: 200))
        let calls = HandlerCalls()
        InfobipLegacyService().didReceive(
            InfobipTests.request(url: "http://127.0.0.1:\(server.port)/a.jpeg"), withContentHandler: calls.record)
        try await calls.firstCall()
        #expect(calls.all.count == 1)
        let attachment = try #require(calls.all.first?.attachments.first)
        defer { try? FileManager.default.removeItem(at: attachment.url) }
        #expect(attachment.type == "public.jpeg")
        #expect(!MM_MTMessage.isCorrectPayload(["aps": ["alert": "x"]]))
        withExtendedLifetime(server) {}
    }
}
