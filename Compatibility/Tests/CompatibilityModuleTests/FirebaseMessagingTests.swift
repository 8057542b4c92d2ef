import FirebaseMessaging
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Serialized: as Firebase's, the helper is one for the process and keeps the last content and handler it was given.
@Suite("FirebaseMessaging on Linux: the extension helper behaves as FIRMessagingExtensionHelper", .serialized)
struct FirebaseMessagingTests {
    /// Calls of the content handler, from whichever thread the helper calls it.
    final class Calls: @unchecked Sendable {
        private let lock = NSLock()
        private var contents: [UNNotificationContent] = []

        func record(_ content: UNNotificationContent) {
            lock.lock()
            defer { lock.unlock() }
            contents.append(content)
        }

        var all: [UNNotificationContent] {
            lock.lock()
            defer { lock.unlock() }
            return contents
        }

        /// Waits for the first call (up to 90 s, past URLSession's 60 s), then a little more so a second one would be
        /// seen.
        func firstCall() async throws {
            let deadline = ContinuousClock.now + .seconds(90)
            while all.isEmpty, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    func content(_ userInfo: [AnyHashable: Any]) -> UNMutableNotificationContent {
        let content = UNMutableNotificationContent()
        content.title = "Sale"
        content.body = "Everything must go"
        content.userInfo = userInfo
        return content
    }

    @Test("without fcm_options.image the handler is called at once, once, with the content unchanged")
    func noImage() {
        for userInfo: [AnyHashable: Any] in [
            [:], ["aps": ["alert": "x"]], ["fcm_options": [:] as [String: Any]],
            ["image": "https://cdn.example.com/cat.png"], ["fcm_options": "https://cdn.example.com/cat.png"],
        ] {
            let original = content(userInfo)
            var calls: [UNNotificationContent] = []
            Messaging.serviceExtension().populateNotificationContent(original) { calls.append($0) }
            #expect(calls.count == 1)
            #expect(calls.first === original && original.attachments.isEmpty && original.title == "Sale")
        }
    }

    @Test("an image value that is not a URL: the handler gets the content unchanged")
    func notAURL() {
        for image: Any in ["", 42] {
            let original = content(["fcm_options": ["image": image]])
            var calls: [UNNotificationContent] = []
            Messaging.serviceExtension().populateNotificationContent(original) { calls.append($0) }
            #expect(calls.count == 1 && calls.first === original && original.attachments.isEmpty)
        }
    }

    @Test("a download that fails (unreachable server, file URL) ends in one call without an attachment")
    func downloadFails() async throws {
        for image in ["https://127.0.0.1:1/cat.png", "file:///tmp/richpush-missing-\(UUID().uuidString).png"] {
            let original = content(["fcm_options": ["image": image]])
            let calls = Calls()
            Messaging.serviceExtension().populateNotificationContent(original) { calls.record($0) }
            try await calls.firstCall()
            #expect(calls.all.count == 1, "\(image)")
            #expect(calls.all.first === original && original.attachments.isEmpty && original.title == "Sale")
        }
    }

    @Test("a downloaded image is renamed with the suggested filename's extension and attached with identifier \"\"")
    func downloadAttaches() async throws {
        let server = try OneShotHTTPServer(
            contentType: "application/octet-stream", body: Data(repeating: 0x89, count: 2_000))
        let original = content(["fcm_options": ["image": "http://127.0.0.1:\(server.port)/images/cat.png?v=2"]])
        let calls = Calls()
        Messaging.serviceExtension().populateNotificationContent(original) { calls.record($0) }
        try await calls.firstCall()
        #expect(calls.all.count == 1 && calls.all.first === original)
        let attachment = try #require(original.attachments.first)
        defer { try? FileManager.default.removeItem(at: attachment.url) }
        // No Content-Type check: the type is the one the URL's file name says.
        #expect(original.attachments.count == 1 && attachment.identifier == "" && attachment.type == "public.png")
        #expect(attachment.url.pathExtension == "png")
        withExtendedLifetime(server) {}
    }

    @Test("a name without an extension takes the MIME type's, as Apple's suggestedFilename; else no attachment")
    func suggestedFilename() async throws {
        for (contentType, attached) in [("image/png", true), ("application/octet-stream", false)] {
            let server = try OneShotHTTPServer(contentType: contentType, body: Data(repeating: 1, count: 100))
            let original = content(["fcm_options": ["image": "http://127.0.0.1:\(server.port)/image"]])
            let calls = Calls()
            Messaging.serviceExtension().populateNotificationContent(original) { calls.record($0) }
            try await calls.firstCall()
            #expect(calls.all.count == 1 && original.attachments.count == (attached ? 1 : 0), "\(contentType)")
            #expect(original.attachments.first.map { $0.type == "public.png" } ?? true)
            for attachment in original.attachments { try? FileManager.default.removeItem(at: attachment.url) }
            withExtendedLifetime(server) {}
        }
    }

    @Test("one helper for the process; appDidReceiveMessage says whether a message is new")
    func messaging() {
        #expect(Messaging.serviceExtension() === Messaging.serviceExtension())
        #expect(Messaging.messaging() === Messaging.messaging())
        #expect(Messaging.messaging().appDidReceiveMessage(["gcm.message_id": "1"]).status == .new)
        #expect(Messaging.messaging().appDidReceiveMessage([:]).status == .unknown)
        Messaging.serviceExtension().exportDeliveryMetricsToBigQuery(withMessageInfo: ["gcm.message_id": "1"])
    }
}

/// An HTTP server on 127.0.0.1 that answers one request with a 200 and a body, then closes.
final class OneShotHTTPServer: @unchecked Sendable {
    let port: Int
    private let listener: Int32

    init(contentType: String, body: Data) throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.EIO) }
        listener = descriptor
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
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
        let head =
            "HTTP/1.1 200 OK\r\nContent-Type: \(contentType)\r\nContent-Length: \(body.count)\r\n"
            + "Connection: close\r\n\r\n"
        let response = Data(head.utf8) + body
        Thread.detachNewThread {
            let client = accept(descriptor, nil, nil)
            guard client >= 0 else { return }
            var request = Data()
            var buffer = [UInt8](repeating: 0, count: 4096)
            while !request.contains(Data("\r\n\r\n".utf8)) {
                let count = read(client, &buffer, buffer.count)
                if count <= 0 { break }
                request.append(contentsOf: buffer[0..<count])
            }
            response.withUnsafeBytes { bytes in
                var offset = 0
                while offset < bytes.count {
                    let written = write(client, bytes.baseAddress! + offset, bytes.count - offset)
                    if written <= 0 { break }
                    offset += written
                }
            }
            close(client)
        }
    }

    deinit {
        close(listener)
    }
}

extension Data {
    fileprivate func contains(_ other: Data) -> Bool { range(of: other) != nil }
}
