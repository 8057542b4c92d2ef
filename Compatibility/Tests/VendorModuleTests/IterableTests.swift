import Foundation
import IterableAppExtensions
import Testing

/// Iterable's samples: an empty subclass.
final class IterableSampleService: ITBNotificationServiceExtension, @unchecked Sendable {}

/// Another vendor's SDK, handed the pushes without `itbl`.
final class IterableTestDelegate: ITBNotificationServiceExtensionDelegate, @unchecked Sendable {
    // @unchecked: written once by the extension's call, read after it.
    var received: [String] = []

    func notificationServiceDidReceive(
        _ request: UNNotificationRequest, bestAttemptContent: UNMutableNotificationContent,
        contentHandler: @escaping (UNNotificationContent) -> Void
    ) {
        received.append(request.identifier)
        bestAttemptContent.subtitle = "other vendor"
        contentHandler(bestAttemptContent)
    }
}

/// Serialized: the delegate is a static of Iterable's class.
@Suite("Iterable: ITBNotificationServiceExtension by the iterable rules, category first", .serialized)
struct IterableTests {
    static func request(_ userInfo: [String: Any], category: String = "", id: String = "itbl-test")
        -> UNNotificationRequest
    {
        let content = UNMutableNotificationContent()
        content.title = "Sale"
        content.body = "Everything must go"
        content.categoryIdentifier = category
        content.userInfo = userInfo
        return UNNotificationRequest(identifier: id, content: content)
    }

    @Test("without an image the handler is called once the category step is done, with itbl.messageId as category")
    func noImage() async throws {
        let calls = HandlerCalls()
        IterableSampleService().didReceive(
            Self.request(["itbl": ["messageId": "m-42"]]), withContentHandler: calls.record)
        // The category step ends 0.01 s later, on the main queue.
        try await calls.firstCall()
        #expect(calls.all.count == 1 && calls.all.first?.categoryIdentifier == "m-42")
        #expect(calls.all.first?.attachments.isEmpty == true)

        let own = HandlerCalls()
        IterableSampleService().didReceive(
            Self.request(["itbl": ["messageId": "m-42"]], category: "promo"), withContentHandler: own.record)
        try await own.firstCall()
        #expect(own.all.count == 1 && own.all.first?.categoryIdentifier == "promo")
    }

    @Test("the image is appended, named UUID + suggested file name (the URL's .png, whatever the Content-Type)")
    func imageAppended() async throws {
        let server = try LocalHTTPServer(contentType: "application/octet-stream", body: Data(repeating: 3, count: 400))
        let calls = HandlerCalls()
        IterableSampleService().didReceive(
            Self.request(["itbl": ["attachment-url": "http://127.0.0.1:\(server.port)/img/cat.png"]]),
            withContentHandler: calls.record)
        try await calls.firstCall()
        #expect(calls.all.count == 1)
        let attachment = try #require(calls.all.first?.attachments.first)
        defer { try? FileManager.default.removeItem(at: attachment.url) }
        #expect(calls.all.first?.attachments.count == 1 && attachment.type == "public.png")
        withExtendedLifetime(server) {}
    }

    @Test("a failed download ends in one call without an attachment")
    func downloadFails() async throws {
        let calls = HandlerCalls()
        IterableSampleService().didReceive(
            Self.request(["itbl": ["attachment-url": "http://127.0.0.1:1/cat.png", "messageId": "m-1"]]),
            withContentHandler: calls.record)
        try await calls.firstCall()
        #expect(calls.all.count == 1 && calls.all.first?.attachments.isEmpty == true)
        #expect(calls.all.first?.categoryIdentifier == "m-1")
    }

    @Test("with a delegate, a push without itbl goes to it and Iterable does nothing else; an itbl push stays")
    func delegateHandOff() async throws {
        let delegate = IterableTestDelegate()
        ITBNotificationServiceExtension.itblNotificationDelegate = delegate
        defer { ITBNotificationServiceExtension.itblNotificationDelegate = nil }
        let other = HandlerCalls()
        IterableSampleService().didReceive(
            Self.request(["fcm_options": ["image": "x"]], id: "fcm-1"), withContentHandler: other.record)
        #expect(delegate.received == ["fcm-1"])
        #expect(other.all.count == 1 && other.all.first?.subtitle == "other vendor")

        let ours = HandlerCalls()
        IterableSampleService().didReceive(
            Self.request(["itbl": ["messageId": "m-2"]], id: "itbl-2"), withContentHandler: ours.record)
        try await ours.firstCall()
        #expect(delegate.received == ["fcm-1"] && ours.all.first?.categoryIdentifier == "m-2")
    }

    @Test("timeWillExpire delivers the best attempt; the cancelled download then calls the handler again")
    func expiry() async throws {
        let server = try DelayedImageServer(contentType: "image/png", body: Data(repeating: 3, count: 300))
        let calls = HandlerCalls()
        let service = IterableSampleService()
        service.didReceive(
            Self.request(["itbl": ["attachment-url": "http://127.0.0.1:\(server.port)/slow.png"]]),
            withContentHandler: calls.record)
        try await Task.sleep(for: .milliseconds(50))
        service.serviceExtensionTimeWillExpire()
        #expect(calls.all.count == 2 && calls.all.allSatisfy { $0.attachments.isEmpty })
        // The download was cancelled: its answer attaches nothing and calls nothing more.
        server.answer()
        try await Task.sleep(for: .milliseconds(300))
        #expect(calls.all.count == 2 && calls.all.allSatisfy { $0.attachments.isEmpty })
    }
}
