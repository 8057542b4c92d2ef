import Foundation
import Pushwoosh
import Testing

/// The Xcode template with Pushwoosh's manager, as apps wrote it before 7.1 (`import Pushwoosh`, up to 6.7).
final class PushwooshLegacyService: UNNotificationServiceExtension, @unchecked Sendable {
    // @unchecked: iOS calls an extension's methods one at a time; so do these tests.
    var contentHandler: ((UNNotificationContent) -> Void)?
    var bestAttemptContent: UNMutableNotificationContent?

    override func didReceive(
        _ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
    ) {
        self.contentHandler = contentHandler
        bestAttemptContent = request.content.mutableCopy() as? UNMutableNotificationContent
        Pushwoosh.sharedInstance()
        Pushwoosh.debug.setLogLevel(.PW_LL_ERROR)
        PWNotificationExtensionManager.shared().handle(request, contentHandler: contentHandler)
    }

    override func serviceExtensionTimeWillExpire() {
        if let contentHandler, let bestAttemptContent { contentHandler(bestAttemptContent) }
    }
}

@Suite("Pushwoosh up to 6.7 (import Pushwoosh): PWNotificationExtensionManager, not deprecated there")
struct PushwooshLegacyTests {
    @Test("the manager attaches a Pushwoosh message's image, typed by the URL's extension")
    func manager() async throws {
        let server = try LocalHTTPServer(contentType: "image/png", body: Data(repeating: 1, count: 200))
        let calls = HandlerCalls()
        PushwooshLegacyService().didReceive(
            PushwooshTests.request(["pw_msg": "1", "attachment": "http://127.0.0.1:\(server.port)/cat"]),
            withContentHandler: calls.record)
        try await calls.firstCall()
        #expect(calls.all.count == 1)
        let attachment = try #require(calls.all.first?.attachments.first)
        defer { try? FileManager.default.removeItem(at: attachment.url) }
        // The suggested name takes the MIME type's extension: cat.png.
        #expect(attachment.type == "public.png")
        withExtendedLifetime(server) {}
    }

    @Test("the App Group variant of 7.0.x hands the content back at once, without the image")
    func appGroups() {
        var calls: [UNNotificationContent] = []
        PWNotificationExtensionManager.shared().handle(
            PushwooshTests.request(["pw_msg": "1", "attachment": "http://127.0.0.1:1/cat.png"]),
            withAppGroups: "group.com.example.app"
        ) { calls.append($0) }
        #expect(calls.count == 1 && calls.first?.attachments.isEmpty == true && calls.first?.title == "Sale")
    }
}
