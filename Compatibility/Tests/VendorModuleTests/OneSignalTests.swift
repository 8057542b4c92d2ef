import Foundation
import OneSignal
import OneSignalExtension
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// OneSignal 5.x's extension as its guide has apps write it: an implicitly unwrapped request, the optional stored
/// handler and content passed as they are.
final class OneSignalStyleService: UNNotificationServiceExtension, @unchecked Sendable {
    // @unchecked: iOS calls an extension's methods one at a time; so do these tests.
    var contentHandler: ((UNNotificationContent) -> Void)?
    var receivedRequest: UNNotificationRequest!
    var bestAttemptContent: UNMutableNotificationContent?

    override func didReceive(
        _ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
    ) {
        receivedRequest = request
        self.contentHandler = contentHandler
        bestAttemptContent = request.content.mutableCopy() as? UNMutableNotificationContent
        if let bestAttemptContent {
            bestAttemptContent.subtitle = "edited"
            OneSignalExtension.didReceiveNotificationExtensionRequest(
                receivedRequest, with: self.bestAttemptContent, withContentHandler: self.contentHandler)
        }
    }

    override func serviceExtensionTimeWillExpire() {
        if let contentHandler, let bestAttemptContent {
            OneSignalExtension.serviceExtensionTimeWillExpireRequest(receivedRequest, with: bestAttemptContent)
            contentHandler(bestAttemptContent)
        }
    }
}

/// OneSignal 3.x's: the same calls on `OneSignal`, the handler passed as the parameter, the log level set first.
final class OneSignalV3StyleService: UNNotificationServiceExtension, @unchecked Sendable {
    // @unchecked: as above.
    var bestAttemptContent: UNMutableNotificationContent?

    override func didReceive(
        _ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
    ) {
        OneSignal.setLogLevel(.LL_VERBOSE, visualLevel: .LL_NONE)
        bestAttemptContent = request.content.mutableCopy() as? UNMutableNotificationContent
        OneSignal.didReceiveNotificationExtensionRequest(
            request, with: bestAttemptContent, withContentHandler: contentHandler)
    }
}

/// The deprecated form without a handler (OneSignal before 3.5.0), called through a protocol so the test itself
/// does not warn.
protocol OneSignalHandlerlessCall {
    static func didReceiveNotificationExtensionRequest(
        _ request: UNNotificationRequest, with replacementContent: UNMutableNotificationContent?
    ) -> UNMutableNotificationContent!
}

extension OneSignal: OneSignalHandlerlessCall {}

@Suite("OneSignal: attachments downloaded before the handler, replacing the content's, the receipt recorded")
struct OneSignalTests {
    static func request(_ userInfo: [String: Any], identifier: String = "os-test") -> UNNotificationRequest {
        let content = UNMutableNotificationContent()
        content.title = "Sale"
        content.body = "Everything must go"
        content.userInfo = userInfo
        return UNNotificationRequest(identifier: identifier, content: content)
    }

    @Test("no att: the handler is called once, before the call returns, with the extension's content unchanged")
    func noImage() {
        let calls = HandlerCalls()
        OneSignalStyleService().didReceive(Self.request(["custom": ["i": "n-1"]]), withContentHandler: calls.record)
        #expect(calls.all.count == 1)
        #expect(calls.all.first?.subtitle == "edited" && calls.all.first?.attachments.isEmpty == true)
    }

    @Test("att: downloaded before the handler, named from the MIME map, replacing the content's attachment")
    func imageAttachedBeforeHandler() async throws {
        let server = try LocalHTTPServer(contentType: "image/png", body: Data(repeating: 0x89, count: 300))
        let old = try Self.existingAttachment()
        let userInfo: [String: Any] = ["att": ["id": "http://127.0.0.1:\(server.port)/banner"], "custom": ["i": "n-2"]]
        let content = UNMutableNotificationContent()
        content.attachments = [old]
        content.userInfo = userInfo
        let calls = HandlerCalls()
        let attachedWhenCalled = HandlerCalls()
        let returned = OneSignalExtension.didReceiveNotificationExtensionRequest(
            Self.request(userInfo, identifier: "req-2"), with: content,
            withContentHandler: { delivered in
                // What the content holds when the handler is called: the download is done by then.
                let first = delivered.attachments.first
                if delivered.attachments.count == 1, first?.type == "public.png", first?.url != old.url {
                    attachedWhenCalled.record(delivered)
                }
                calls.record(delivered)
            })
        #expect(returned === content)
        try await calls.firstCall()
        #expect(calls.all.count == 1 && calls.all.first === content && attachedWhenCalled.all.count == 1)
        let attachment = try #require(content.attachments.first)
        defer { try? FileManager.default.removeItem(at: attachment.url) }
        #expect(content.attachments.count == 1 && attachment.url != old.url)
        #expect(attachment.type == "public.png" && attachment.url.pathExtension == "png")
        // OneSignal writes the request's identifier as the collapse id.
        #expect((content.userInfo["custom"] as? [String: Any])?["collapse_id"] as? String == "req-2")
        withExtendedLifetime(server) {}
    }

    @Test("3.x: the same behaviour through `OneSignal`; the handlerless form returns the content with its image")
    func versionThree() throws {
        let server = try LocalHTTPServer(contentType: "image/jpeg", body: Data(repeating: 0xFF, count: 300))
        let userInfo: [String: Any] = ["os_data": ["att": ["a": "http://127.0.0.1:\(server.port)/photo"]]]
        let copy = Self.request(userInfo).content.mutableCopy() as? UNMutableNotificationContent
        let content: UNMutableNotificationContent? = (OneSignal.self as any OneSignalHandlerlessCall.Type)
            .didReceiveNotificationExtensionRequest(Self.request(userInfo), with: copy)
        let attachment = try #require(content?.attachments.first)
        defer { try? FileManager.default.removeItem(at: attachment.url) }
        #expect(content === copy && attachment.type == "public.jpeg" && attachment.url.pathExtension == "jpeg")
        let calls = HandlerCalls()
        OneSignalV3StyleService().didReceive(Self.request(["aps": ["badge": 1]]), withContentHandler: calls.record)
        #expect(calls.all.count == 1)
        withExtendedLifetime(server) {}
    }

    @Test("expiry: the content as the extension has it, nothing downloaded; badge_inc sets the badge")
    func expiryAndBadge() {
        let calls = HandlerCalls()
        let service = OneSignalStyleService()
        service.receivedRequest = Self.request(["att": ["id": "https://127.0.0.1:1/cat.png"]])
        service.bestAttemptContent = UNMutableNotificationContent()
        service.bestAttemptContent?.title = "best"
        service.contentHandler = calls.record
        service.serviceExtensionTimeWillExpire()
        #expect(
            calls.all.count == 1 && calls.all.first?.title == "best" && calls.all.first?.attachments.isEmpty == true)
        let badged = OneSignalExtension.didReceiveNotificationExtensionRequest(
            Self.request(["custom": ["badge_inc": 2]]), with: nil, withContentHandler: { _ in })
        #expect(badged?.badge == 2)
    }

    @Test("a failed download: no attachment, the failure and the receipt reported to richpush")
    func failureAndReceipt() async throws {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            setenv("RICHPUSH_EVENTS_FD", "2", 1)
            let calls = HandlerCalls()
            OneSignalStyleService().didReceive(
                OneSignalTests.request(["att": ["id": "https://127.0.0.1:1/cat.png"], "custom": ["i": "abc-123"]]),
                withContentHandler: calls.record)
            try await calls.firstCall()
            exit(calls.all.count == 1 && calls.all.first?.attachments.isEmpty == true ? 0 : 1)
        }
        let events = HostChannelLines.parse(String(decoding: result?.standardErrorContent ?? [], as: UTF8.self))
        let failure = try #require(events.first { $0["event"] as? String == "imageFailed" })
        #expect(failure["vendor"] as? String == "onesignal" && failure["reason"] as? String == "networkError")
        let receipt = try #require(
            events.first { $0["event"] as? String == "wouldSend" }?["request"] as? [String: Any])
        #expect(receipt["method"] as? String == "PUT")
        #expect(receipt["url"] as? String == "https://api.onesignal.com/notifications/abc-123/report_received")
        #expect((receipt["note"] as? String)?.contains("OS_ENABLE_RECEIVE_RECEIPTS") == true)
    }

    /// An attachment the content had before OneSignal ran.
    static func existingAttachment() throws -> UNNotificationAttachment {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("os-old-\(UUID().uuidString).png")
        try Data(repeating: 0x89, count: 10).write(to: file)
        return try UNNotificationAttachment(identifier: "old", url: file, options: nil)
    }
}
