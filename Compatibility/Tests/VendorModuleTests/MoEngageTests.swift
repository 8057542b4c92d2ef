import Foundation
import MoEngageRichNotification
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// MoEngage's sample: the App Group, the handler and a best attempt kept, MoEngage handles the push.
final class MoEngageSampleService: UNNotificationServiceExtension, @unchecked Sendable {
    // @unchecked: iOS calls an extension's methods one at a time; so do these tests.
    var contentHandler: ((UNNotificationContent) -> Void)?
    var bestAttemptContent: UNMutableNotificationContent?

    override func didReceive(
        _ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
    ) {
        MoEngageSDKRichNotification.setAppGroupID("group.test.moengage")
        self.contentHandler = contentHandler
        bestAttemptContent = request.content.mutableCopy() as? UNMutableNotificationContent
        MoEngageSDKRichNotification.handle(richNotificationRequest: request, withContentHandler: contentHandler)
    }

    override func serviceExtensionTimeWillExpire() {
        if let contentHandler, let bestAttemptContent { contentHandler(bestAttemptContent) }
    }
}

@Suite("MoEngage: MoEngageSDKRichNotification by the moengage rules")
struct MoEngageTests {
    static func request(_ userInfo: [String: Any]) -> UNNotificationRequest {
        let content = UNMutableNotificationContent()
        content.title = "Sale"
        content.body = "Everything must go"
        content.userInfo = userInfo
        return UNNotificationRequest(identifier: "moe-test", content: content)
    }

    @Test("a push without the moengage dictionary is handed back unchanged, at once")
    func notMoEngage() {
        let calls = HandlerCalls()
        let request = Self.request(["media-attachment": "https://127.0.0.1:1/a.png"])
        MoEngageSampleService().didReceive(request, withContentHandler: calls.record)
        #expect(calls.all.count == 1 && calls.all.first === request.content)
    }

    @Test("the media is named from the response's MIME type (8.01.10), else the URL's extension")
    func naming() async throws {
        for (contentType, path, type) in [
            ("image/gif", "/media", "com.compuserve.gif"), ("application/octet-stream", "/m/cat.png", "public.png"),
        ] {
            let server = try LocalHTTPServer(contentType: contentType, body: Data(repeating: 6, count: 300))
            let calls = HandlerCalls()
            MoEngageSampleService().didReceive(
                Self.request(["moengage": ["media-attachment": "http://127.0.0.1:\(server.port)\(path)"]]),
                withContentHandler: calls.record)
            try await calls.firstCall()
            #expect(calls.all.count == 1)
            let attachment = try #require(calls.all.first?.attachments.first)
            defer { try? FileManager.default.removeItem(at: attachment.url) }
            #expect(attachment.type == type, "\(contentType) \(path)")
            withExtendedLifetime(server) {}
        }
    }

    @Test("the impression of a MoEngage push is recorded as what MoEngage would send; MORichNotification is 6.x's name")
    func impressionRecorded() async throws {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            setenv("RICHPUSH_EVENTS_FD", "2", 1)
            let calls = HandlerCalls()
            let content = UNMutableNotificationContent()
            content.userInfo = ["moengage": ["app_id": "APP1", "cid": "c-7"]]
            MORichNotification.setAppGroupID("group.test.moengage")
            MORichNotification.handle(
                richNotificationRequest: UNNotificationRequest(identifier: "moe", content: content),
                withContentHandler: calls.record)
            exit(calls.all.count == 1 ? 0 : 1)
        }
        let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        let sent = CleverTapTests.events(output).filter { $0["event"] as? String == "wouldSend" }
        #expect(sent.count == 1, "\(output)")
        let request = try #require(sent.first?["request"] as? [String: Any])
        #expect(request["url"] as? String == "https://apiv2.moengage.com/v2/report/add/APP1")
        #expect((request["fields"] as? [String])?.contains("cid=c-7") == true)
    }
}
