import Foundation
import NotificareNotificationServiceExtensionKit
import Testing

@Suite("Notificare: NotificareNotificationServiceExtension.handleNotificationRequest, callback and async")
struct NotificareTests {
    static func request(_ userInfo: [String: Any]) -> UNNotificationRequest {
        let content = UNMutableNotificationContent()
        content.title = "Sale"
        content.body = "Everything must go"
        content.userInfo = userInfo
        return UNNotificationRequest(identifier: "notificare-test", content: content)
    }

    /// The callback form's result, once it came.
    final class Results: @unchecked Sendable {
        // @unchecked: every access holds `lock`.
        private let lock = NSLock()
        private var results: [Result<UNNotificationContent, Error>] = []

        func record(_ result: Result<UNNotificationContent, Error>) {
            lock.lock()
            defer { lock.unlock() }
            results.append(result)
        }

        var all: [Result<UNNotificationContent, Error>] {
            lock.lock()
            defer { lock.unlock() }
            return results
        }

        func first() async throws -> Result<UNNotificationContent, Error> {
            let deadline = ContinuousClock.now + .seconds(90)
            while all.isEmpty, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
            try await Task.sleep(for: .milliseconds(100))
            #expect(all.count == 1)
            return try #require(all.first)
        }
    }

    @Test("without attachment.uri the result is the content unchanged, with no error")
    func noAttachment() async throws {
        for userInfo: [String: Any] in [
            [:], ["attachment": "https://c.test/a.jpg"], ["attachment": ["mimeType": "image/jpeg"]],
        ] {
            let content = try await NotificareNotificationServiceExtension.handleNotificationRequest(
                Self.request(userInfo))
            #expect(content.title == "Sale" && content.attachments.isEmpty)
        }
    }

    @Test("the image is typed by the response's MIME type, whatever the URL's name says")
    func typedByMIME() async throws {
        let server = try LocalHTTPServer(contentType: "image/png", body: Data(repeating: 1, count: 200))
        let results = Results()
        NotificareNotificationServiceExtension.handleNotificationRequest(
            Self.request(["attachment": ["uri": "http://127.0.0.1:\(server.port)/media/poster", "mimeType": "x"]]),
            results.record)
        let content = try await results.first().get()
        let attachment = try #require(content.attachments.first)
        defer { try? FileManager.default.removeItem(at: attachment.url) }
        #expect(content.attachments.count == 1 && attachment.type == "public.png")
        withExtendedLifetime(server) {}
    }

    @Test("a .jpg served as application/octet-stream fails with downloadFailed: the type hint names no image")
    func octetStream() async throws {
        let server = try LocalHTTPServer(contentType: "application/octet-stream", body: Data(repeating: 1, count: 200))
        await #expect(throws: NotificareNotificationServiceExtension.Error.downloadFailed) {
            _ = try await NotificareNotificationServiceExtension.handleNotificationRequest(
                Self.request(["attachment": ["uri": "http://127.0.0.1:\(server.port)/photo.jpg"]]))
        }
        withExtendedLifetime(server) {}
    }

    @Test("a value that is no URL fails with invalidUrl; an unreachable server with URLSession's error")
    func failures() async throws {
        await #expect(throws: NotificareNotificationServiceExtension.Error.invalidUrl) {
            _ = try await NotificareNotificationServiceExtension.handleNotificationRequest(
                Self.request(["attachment": ["uri": "http://[::1"]]))
        }
        let results = Results()
        NotificareNotificationServiceExtension.handleNotificationRequest(
            Self.request(["attachment": ["uri": "http://127.0.0.1:1/photo.jpg"]]), results.record)
        guard case .failure(let error) = try await results.first() else {
            Issue.record("an unreachable image succeeded")
            return
        }
        #expect(error is URLError)
    }
}
