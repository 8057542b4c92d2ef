import Foundation
import OptimoveNotificationServiceExtension
import Testing

/// The Xcode template handing the request to Optimove.
final class OptimoveStyleService: UNNotificationServiceExtension, @unchecked Sendable {
    // @unchecked: iOS calls an extension's methods one at a time; so do these tests.
    var contentHandler: ((UNNotificationContent) -> Void)?
    var bestAttemptContent: UNMutableNotificationContent?

    override func didReceive(
        _ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
    ) {
        self.contentHandler = contentHandler
        bestAttemptContent = request.content.mutableCopy() as? UNMutableNotificationContent
        OptimoveNotificationService.didReceive(request, withContentHandler: contentHandler)
    }

    override func serviceExtensionTimeWillExpire() {
        if let contentHandler, let bestAttemptContent { contentHandler(bestAttemptContent) }
    }
}

@Suite("Optimove: OptimoveNotificationService.didReceive, Kumulos's code with its own naming")
struct OptimoveTests {
    @Test("a query after the extension is not part of it (6.2.1+): the picture is attached")
    func queryIgnored() async throws {
        let server = try LocalHTTPServer(contentType: "image/jpeg", body: Data(repeating: 1, count: 200))
        let calls = HandlerCalls()
        OptimoveStyleService().didReceive(
            KumulosTests.request(picture: "http://127.0.0.1:\(server.port)/a.jpg?w=300"),
            withContentHandler: calls.record)
        try await calls.firstCall()
        #expect(calls.all.count == 1)
        let attachment = try #require(calls.all.first?.attachments.first)
        defer { try? FileManager.default.removeItem(at: attachment.url) }
        #expect(attachment.type == "public.jpeg")
        withExtendedLifetime(server) {}
    }

    @Test("a push without the message id never gets its handler called by the SDK")
    func notOptimove() async throws {
        let calls = HandlerCalls()
        OptimoveStyleService().didReceive(
            KumulosTests.request(picture: "http://127.0.0.1:1/a.jpg", message: false), withContentHandler: calls.record)
        try await Task.sleep(for: .milliseconds(500))
        #expect(calls.all.isEmpty && AppGroupConfig.suffix == ".optimove")
    }
}
