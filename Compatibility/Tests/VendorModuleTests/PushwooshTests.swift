import Foundation
import PushwooshFramework
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Pushwoosh 7.1's recommended extension: an empty subclass.
final class PushwooshStyleService: PushwooshNotificationServiceExtension, @unchecked Sendable {
    // @unchecked: iOS calls an extension's methods one at a time; so do these tests.
}

/// A subclass that customises the content in `super`'s handler, as the base class's header shows.
final class PushwooshCustomisingService: PushwooshNotificationServiceExtension, @unchecked Sendable {
    // @unchecked: as above.
    override func didReceive(
        _ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
    ) {
        super.didReceive(request) { content in
            let mutable = (content.mutableCopy() as? UNMutableNotificationContent) ?? UNMutableNotificationContent()
            mutable.title = "[edited] \(mutable.title)"
            contentHandler(mutable)
        }
    }

    override func pushwooshAppGroupsName() -> String? { "group.com.example.app" }
}

/// A server that accepts connections and never answers, until it is closed (which resets them): a download that
/// hangs.
final class SilentServer: @unchecked Sendable {
    // @unchecked: the descriptor is set once and closed once.
    let port: Int
    private var listener: Int32

    init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.EIO) }
        listener = descriptor
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(descriptor, 4) == 0 else { throw POSIXError(.EADDRINUSE) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    /// Closes the listener: waiting connections are reset, so their downloads fail at once.
    func close() {
        guard listener >= 0 else { return }
        _ = Glibc.close(listener)
        listener = -1
    }

    deinit { close() }
}

@Suite("Pushwoosh: PushwooshNotificationServiceExtension and PWMessage, as Pushwoosh 7.1's")
struct PushwooshTests {
    static func request(_ userInfo: [String: Any]) -> UNNotificationRequest {
        let content = UNMutableNotificationContent()
        content.title = "Sale"
        content.body = "Everything must go"
        content.userInfo = userInfo
        return UNNotificationRequest(identifier: "pushwoosh-test", content: content)
    }

    @Test("a push without pw_msg is handed back unchanged, even with an attachment URL")
    func notPushwoosh() async throws {
        let calls = HandlerCalls()
        let service = PushwooshStyleService()
        service.didReceive(
            Self.request(["attachment": "http://127.0.0.1:1/photo.jpg"]), withContentHandler: calls.record)
        try await calls.firstCall()
        #expect(calls.all.count == 1)
        #expect(calls.all.first?.title == "Sale" && calls.all.first?.attachments.isEmpty == true)
        #expect(!PWMessage.isPushwooshMessage(["attachment": "x"]) && PWMessage.isPushwooshMessage(["pw_msg": 1]))
    }

    @Test("the attachment of a Pushwoosh message is attached by its suggested file name's extension, not its type")
    func attaches() async throws {
        let server = try LocalHTTPServer(contentType: "application/octet-stream", body: Data(repeating: 7, count: 300))
        let calls = HandlerCalls()
        PushwooshStyleService().didReceive(
            Self.request(["pw_msg": "1", "p": "h", "attachment": "http://127.0.0.1:\(server.port)/img/photo.jpg"]),
            withContentHandler: calls.record)
        try await calls.firstCall()
        #expect(calls.all.count == 1)
        let attachment = try #require(calls.all.first?.attachments.first)
        defer { try? FileManager.default.removeItem(at: attachment.url) }
        #expect(attachment.type == "public.jpeg")
        withExtendedLifetime(server) {}
    }

    @Test("a subclass edits the content in super's handler; a failed download leaves it without an image")
    func customised() async throws {
        let calls = HandlerCalls()
        PushwooshCustomisingService().didReceive(
            Self.request(["pw_msg": "1", "attachment": "http://127.0.0.1:1/photo.jpg"]),
            withContentHandler: calls.record)
        try await calls.firstCall()
        #expect(calls.all.count == 1)
        #expect(calls.all.first?.title == "[edited] Sale" && calls.all.first?.attachments.isEmpty == true)
    }

    @Test("at the deadline the content is handed over once, as it is; the download's end calls nothing more")
    func expiry() async throws {
        let server = try SilentServer()
        let calls = HandlerCalls()
        let service = PushwooshStyleService()
        service.didReceive(
            Self.request(["pw_msg": "1", "attachment": "http://127.0.0.1:\(server.port)/photo.jpg"]),
            withContentHandler: calls.record)
        try await Task.sleep(for: .milliseconds(200))
        #expect(calls.all.isEmpty)
        service.serviceExtensionTimeWillExpire()
        // Handed over on the main queue, without waiting for the download (URLSession's 60 s).
        try await Task.sleep(for: .milliseconds(300))
        #expect(calls.all.count == 1)
        server.close()
        try await Task.sleep(for: .milliseconds(500))
        #expect(calls.all.count == 1 && calls.all.first?.attachments.isEmpty == true)
    }
}
