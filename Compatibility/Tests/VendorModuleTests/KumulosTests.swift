import Foundation
import KumulosSDKExtension
import Testing

/// The Xcode template handing the request to Kumulos, as Kumulos's integration has it.
final class KumulosStyleService: UNNotificationServiceExtension, @unchecked Sendable {
    // @unchecked: iOS calls an extension's methods one at a time; so do these tests.
    var contentHandler: ((UNNotificationContent) -> Void)?
    var bestAttemptContent: UNMutableNotificationContent?

    override func didReceive(
        _ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
    ) {
        self.contentHandler = contentHandler
        bestAttemptContent = request.content.mutableCopy() as? UNMutableNotificationContent
        AppGroupConfig.suffix = ".kumulos"
        KumulosNotificationService.didReceive(request, withContentHandler: contentHandler)
    }

    override func serviceExtensionTimeWillExpire() {
        if let contentHandler, let bestAttemptContent { contentHandler(bestAttemptContent) }
    }
}

@Suite("Kumulos: KumulosNotificationService.didReceive")
struct KumulosTests {
    /// A Kumulos message (`custom.a.k.message.data.id`) with `pictureUrl`, or a push without the id.
    static func request(picture: String, message: Bool = true) -> UNNotificationRequest {
        let content = UNMutableNotificationContent()
        content.title = "Sale"
        content.body = "Everything must go"
        var userInfo: [String: Any] = ["attachments": ["pictureUrl": picture]]
        if message { userInfo["custom"] = ["a": ["k.message": ["type": 1, "data": ["id": 42]]]] }
        content.userInfo = userInfo
        return UNNotificationRequest(identifier: "kumulos-test", content: content)
    }

    @Test("a push without the message id never gets its handler called by the SDK")
    func notKumulos() async throws {
        let calls = HandlerCalls()
        KumulosStyleService().didReceive(
            Self.request(picture: "http://127.0.0.1:1/a.jpg", message: false), withContentHandler: calls.record)
        try await Task.sleep(for: .milliseconds(500))
        #expect(calls.all.isEmpty)
    }

    @Test("a message's picture is attached by its URL's extension")
    func attaches() async throws {
        let server = try LocalHTTPServer(contentType: "application/octet-stream", body: Data(repeating: 1, count: 200))
        let calls = HandlerCalls()
        KumulosStyleService().didReceive(
            Self.request(picture: "http://127.0.0.1:\(server.port)/media/a.gif"), withContentHandler: calls.record)
        try await calls.firstCall()
        #expect(calls.all.count == 1)
        let attachment = try #require(calls.all.first?.attachments.first)
        defer { try? FileManager.default.removeItem(at: attachment.url) }
        #expect(attachment.type == "com.compuserve.gif")
        withExtendedLifetime(server) {}
    }

    @Test("a query after the extension is kept in it: iOS cannot type the file, and the handler gets no image")
    func queryInExtension() async throws {
        let server = try LocalHTTPServer(contentType: "image/jpeg", body: Data(repeating: 1, count: 200))
        let calls = HandlerCalls()
        KumulosStyleService().didReceive(
            Self.request(picture: "http://127.0.0.1:\(server.port)/a.jpg?w=300"), withContentHandler: calls.record)
        try await calls.firstCall()
        #expect(calls.all.count == 1 && calls.all.first?.attachments.isEmpty == true)
        #expect(calls.all.first?.title == "Sale")
        withExtendedLifetime(server) {}
    }
}
