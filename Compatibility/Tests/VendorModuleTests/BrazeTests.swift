import BrazeNotificationService
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Braze's extension as its guide has apps write it: an empty subclass, named with the module.
final class BrazeStyleService: BrazeNotificationService.NotificationService, @unchecked Sendable {}

/// An extension of the app's own that serves several vendors: Braze first, then its own handling.
final class BrazeHandleStyleService: UNNotificationServiceExtension, @unchecked Sendable {
    override func didReceive(
        _ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
    ) {
        if brazeHandle(request: request, contentHandler: contentHandler) { return }
        let content = request.content.mutableCopy() as? UNMutableNotificationContent
        content?.subtitle = "not Braze's"
        contentHandler(content ?? request.content)
    }
}

@Suite("Braze: ab.att.url with its type, named <file>.<type>; anything else, a failure or the expiry: the original")
struct BrazeTests {
    static func request(_ userInfo: [String: Any]) -> UNNotificationRequest {
        let content = UNMutableNotificationContent()
        content.title = "Sale"
        content.body = "Everything must go"
        content.userInfo = userInfo
        return UNNotificationRequest(identifier: "braze-test", content: content)
    }

    @Test("not Braze's (no ab): brazeHandle says false and leaves the handler to the caller; the class delivers it")
    func notBraze() async throws {
        let calls = HandlerCalls()
        BrazeHandleStyleService().didReceive(Self.request(["aps": ["alert": "x"]]), withContentHandler: calls.record)
        #expect(calls.all.count == 1 && calls.all.first?.subtitle == "not Braze's")
        let request = Self.request([:])
        let subclassCalls = HandlerCalls()
        BrazeStyleService().didReceive(request, withContentHandler: subclassCalls.record)
        #expect(subclassCalls.all.count == 1 && subclassCalls.all.first === request.content)
    }

    @Test("Braze's without ab.att.type: handled, the original content once, no download")
    func noType() {
        let calls = HandlerCalls()
        BrazeHandleStyleService().didReceive(
            Self.request(["ab": ["att": ["url": "https://127.0.0.1:1/cat.jpg"]]]), withContentHandler: calls.record)
        #expect(calls.all.count == 1 && calls.all.first?.subtitle == "" && calls.all.first?.attachments.isEmpty == true)
    }

    @Test("ab.att with type jpg: the download is named .jpg whatever it was served as, and attached alone")
    func imageAttached() async throws {
        let server = try LocalHTTPServer(
            contentType: "application/octet-stream", body: Data(repeating: 0xFF, count: 300))
        let calls = HandlerCalls()
        BrazeStyleService().didReceive(
            Self.request(["ab": ["att": ["url": "http://127.0.0.1:\(server.port)/asset", "type": "jpg"]]]),
            withContentHandler: calls.record)
        try await calls.firstCall()
        #expect(calls.all.count == 1)
        let attachment = try #require(calls.all.first?.attachments.first)
        defer { try? FileManager.default.removeItem(at: attachment.url) }
        #expect(calls.all.first?.attachments.count == 1 && attachment.identifier == "")
        #expect(attachment.type == "public.jpeg" && attachment.url.pathExtension == "jpg")
        withExtendedLifetime(server) {}
    }

    @Test("a failed download: the original content, the failure reported to richpush")
    func failureReported() async throws {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            setenv("RICHPUSH_EVENTS_FD", "2", 1)
            let calls = HandlerCalls()
            let request = BrazeTests.request(["ab": ["att": ["url": "https://127.0.0.1:1/cat.jpg", "type": "jpg"]]])
            BrazeStyleService().didReceive(request, withContentHandler: calls.record)
            try await calls.firstCall()
            exit(calls.all.count == 1 && calls.all.first?.attachments.isEmpty == true ? 0 : 1)
        }
        let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        let failure = try #require(HostChannelLines.parse(output).first { $0["event"] as? String == "imageFailed" })
        #expect(failure["vendor"] as? String == "braze" && failure["reason"] as? String == "networkError", "\(output)")
    }

    @Test("expiry while downloading: the original content once, nothing after it")
    func expiry() async throws {
        let silent = try UnansweredHTTPServer()
        let calls = HandlerCalls()
        let service = BrazeStyleService()
        let request = Self.request(["ab": ["att": ["url": "http://127.0.0.1:\(silent.port)/cat", "type": "jpg"]]])
        service.didReceive(request, withContentHandler: calls.record)
        try await Task.sleep(for: .milliseconds(200))
        #expect(calls.all.isEmpty)
        service.serviceExtensionTimeWillExpire()
        service.serviceExtensionTimeWillExpire()
        #expect(
            calls.all.count == 1 && calls.all.first?.title == "Sale" && calls.all.first?.attachments.isEmpty == true)
        withExtendedLifetime(silent) {}
    }
}
