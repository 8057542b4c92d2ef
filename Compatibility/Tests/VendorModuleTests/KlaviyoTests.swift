import Foundation
import KlaviyoSwiftExtension
import Testing

/// Klaviyo's README example extension.
final class KlaviyoStyleService: UNNotificationServiceExtension, @unchecked Sendable {
    // @unchecked: iOS calls an extension's methods one at a time; so do these tests.
    var request: UNNotificationRequest!
    var contentHandler: ((UNNotificationContent) -> Void)?
    var bestAttemptContent: UNMutableNotificationContent?
    var fallbackMediaType: String?

    override func didReceive(
        _ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
    ) {
        self.request = request
        self.contentHandler = contentHandler
        bestAttemptContent = request.content.mutableCopy() as? UNMutableNotificationContent
        guard let bestAttemptContent else { return }
        if let fallbackMediaType {
            KlaviyoExtensionSDK.handleNotificationServiceDidReceivedRequest(
                request: request, bestAttemptContent: bestAttemptContent, contentHandler: contentHandler,
                fallbackMediaType: fallbackMediaType)
        } else {
            KlaviyoExtensionSDK.handleNotificationServiceDidReceivedRequest(
                request: request, bestAttemptContent: bestAttemptContent, contentHandler: contentHandler)
        }
    }

    override func serviceExtensionTimeWillExpire() {
        if let contentHandler, let bestAttemptContent {
            KlaviyoExtensionSDK.handleNotificationServiceExtensionTimeWillExpireRequest(
                request: request, bestAttemptContent: bestAttemptContent, contentHandler: contentHandler)
        }
    }
}

@Suite("Klaviyo: KlaviyoExtensionSDK's two calls")
struct KlaviyoTests {
    static func request(_ userInfo: [String: Any]) -> UNNotificationRequest {
        let content = UNMutableNotificationContent()
        content.title = "Sale"
        content.body = "Everything must go"
        content.userInfo = userInfo
        return UNNotificationRequest(identifier: "klaviyo-test", content: content)
    }

    @Test("without rich-media the handler gets the best attempt at once")
    func noMedia() {
        var calls: [UNNotificationContent] = []
        KlaviyoStyleService().didReceive(Self.request(["body": ["_k": "x"]])) { calls.append($0) }
        #expect(calls.count == 1 && calls.first?.attachments.isEmpty == true && calls.first?.title == "Sale")
    }

    @Test("the file is typed by rich-media-type, else the fallback type, whatever the server and URL say")
    func typedByPayload() async throws {
        for (type, fallback, expected) in [
            ("png", nil, "public.png"), (nil, nil, "public.jpeg"), (nil, "gif", "com.compuserve.gif"),
        ]
            as [(String?, String?, String)]
        {
            let server = try LocalHTTPServer(
                contentType: "application/octet-stream", body: Data(repeating: 1, count: 200))
            var userInfo: [String: Any] = ["rich-media": "http://127.0.0.1:\(server.port)/media.bin"]
            if let type { userInfo["rich-media-type"] = type }
            let service = KlaviyoStyleService()
            service.fallbackMediaType = fallback
            let calls = HandlerCalls()
            service.didReceive(Self.request(userInfo), withContentHandler: calls.record)
            try await calls.firstCall()
            #expect(calls.all.count == 1)
            let attachment = try #require(calls.all.first?.attachments.first)
            #expect(attachment.type == expected)
            try? FileManager.default.removeItem(at: attachment.url)
            withExtendedLifetime(server) {}
        }
    }

    @Test("at the deadline the best attempt is handed over as it is, before the download ends")
    func expiry() async throws {
        let server = try SilentServer()
        let service = KlaviyoStyleService()
        let calls = HandlerCalls()
        service.didReceive(
            Self.request(["rich-media": "http://127.0.0.1:\(server.port)/a.jpg"]), withContentHandler: calls.record)
        try await Task.sleep(for: .milliseconds(200))
        #expect(calls.all.isEmpty)
        service.serviceExtensionTimeWillExpire()
        #expect(calls.all.count == 1 && calls.all.first?.attachments.isEmpty == true)
        server.close()
    }
}
