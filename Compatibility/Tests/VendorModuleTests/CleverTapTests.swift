import CTNotificationService
import CleverTapSDK
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// CleverTap's starter extension: the impression through CleverTapSDK, then the base class.
final class CleverTapStarterService: CTNotificationServiceExtension, @unchecked Sendable {
    // @unchecked: iOS calls an extension's methods one at a time; so do these tests.
    override func didReceive(
        _ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
    ) {
        CleverTap.setDebugLevel(2)
        CleverTap.sharedInstance()?.recordNotificationViewedEvent(withData: request.content.userInfo)
        super.didReceive(request, withContentHandler: contentHandler)
    }
}

/// A subclass that reads its own keys, as CleverTap's README allows.
final class CleverTapCustomKeysService: CTNotificationServiceExtension, @unchecked Sendable {
    // @unchecked: as above.
    override func didReceive(
        _ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
    ) {
        mediaUrlKey = "banner_url"
        mediaTypeKey = "banner_kind"
        super.didReceive(request, withContentHandler: contentHandler)
    }
}

@Suite("CleverTap: CTNotificationServiceExtension by the clevertap rules, the viewed event recorded")
struct CleverTapTests {
    static func request(_ userInfo: [String: Any]) -> UNNotificationRequest {
        let content = UNMutableNotificationContent()
        content.title = "Sale"
        content.body = "Everything must go"
        content.userInfo = userInfo
        return UNNotificationRequest(identifier: "ct-test", content: content)
    }

    @Test("without ct_mediaType the handler is called at once, once, with the content as it came")
    func noType() {
        let calls = HandlerCalls()
        CTNotificationServiceExtension().didReceive(
            Self.request(["ct_mediaUrl": "https://127.0.0.1:1/cat.png"]), withContentHandler: calls.record)
        #expect(calls.all.count == 1)
        #expect(calls.all.first?.attachments.isEmpty == true && calls.all.first?.title == "Sale")
    }

    @Test(
        "a type other than image, video or audio names the file from the MIME type (0.1.5): attached, identifier \"\"")
    func mimeNaming() async throws {
        let server = try LocalHTTPServer(contentType: "image/png", body: Data(repeating: 0x89, count: 500))
        let calls = HandlerCalls()
        CTNotificationServiceExtension().didReceive(
            Self.request(["ct_mediaUrl": "http://127.0.0.1:\(server.port)/banner", "ct_mediaType": "gif"]),
            withContentHandler: calls.record)
        try await calls.firstCall()
        #expect(calls.all.count == 1)
        let attachment = try #require(calls.all.first?.attachments.first)
        defer { try? FileManager.default.removeItem(at: attachment.url) }
        // Up to 0.1.4 the file was named .gif, the payload's type.
        #expect(attachment.type == "public.png" && attachment.identifier == "")
        withExtendedLifetime(server) {}
    }

    @Test("a subclass's mediaUrlKey and mediaTypeKey are read instead of CleverTap's keys")
    func customKeys() async throws {
        let server = try LocalHTTPServer(contentType: "application/octet-stream", body: Data(repeating: 1, count: 300))
        let calls = HandlerCalls()
        CleverTapCustomKeysService().didReceive(
            Self.request(["banner_url": "http://127.0.0.1:\(server.port)/b", "banner_kind": "image"]),
            withContentHandler: calls.record)
        try await calls.firstCall()
        let attachment = try #require(calls.all.first?.attachments.first)
        defer { try? FileManager.default.removeItem(at: attachment.url) }
        #expect(attachment.type == "public.jpeg")
        withExtendedLifetime(server) {}
    }

    @Test("timeWillExpire hands over the best attempt and the download's end calls the handler again, as CleverTap's")
    func expiryThenLateCall() async throws {
        let server = try DelayedImageServer(contentType: "image/jpeg", body: Data(repeating: 2, count: 300))
        let calls = HandlerCalls()
        let service = CTNotificationServiceExtension()
        service.didReceive(
            Self.request(["ct_mediaUrl": "http://127.0.0.1:\(server.port)/p.jpg", "ct_mediaType": "image"]),
            withContentHandler: calls.record)
        service.serviceExtensionTimeWillExpire()
        #expect(calls.all.count == 1 && calls.all.first?.attachments.isEmpty == true)
        server.answer()
        let deadline = ContinuousClock.now + .seconds(30)
        while calls.all.count < 2, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        #expect(calls.all.count == 2 && calls.all[1].attachments.count == 1)
        for attachment in calls.all[1].attachments { try? FileManager.default.removeItem(at: attachment.url) }
    }

    @Test("recordNotificationViewedEvent is recorded as what CleverTap would send, with its W$ and wzrk_ keys")
    func viewedEventRecorded() async throws {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            setenv("RICHPUSH_EVENTS_FD", "2", 1)
            CleverTap.setCredentialsWithAccountID("TEST-ACC", token: "tok", region: "in1")
            let clevertap = try #require(CleverTap.sharedInstance())
            clevertap.recordNotificationViewedEvent(withData: ["W$id": "0_7", "wzrk_pn": "true", "aps": [:]])
            // Not a dictionary: CleverTap ignores it.
            clevertap.recordNotificationViewedEvent(withData: "not a payload")
            #expect(clevertap.isCleverTapNotification(["wzrk_id": "1"]))
            exit(0)
        }
        let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        let sent = Self.events(output).filter { $0["event"] as? String == "wouldSend" }
        #expect(sent.count == 1, "\(output)")
        let request = try #require(sent.first?["request"] as? [String: Any])
        #expect(request["url"] as? String == "https://in1-spiky.clevertap-prod.com/a1?os=iOS&z=TEST-ACC")
        let fields = request["fields"] as? [String] ?? []
        #expect(fields.contains("evtName=Notification Viewed") && fields.contains("wzrk_id=0_7"), "\(fields)")
        #expect(!fields.contains { $0.hasPrefix("aps") })
    }

    @Test("the calls CleverTap's samples make compile and run: credentials, debug levels, instances")
    func sampleCalls() {
        CleverTap.setDebugLevel(CleverTapLogLevel.debug.rawValue)
        #expect(CleverTap.getDebugLevel() == .debug)
        CleverTap.autoIntegrate()
        let config = CleverTapInstanceConfig(accountId: "OTHER", accountToken: "t")
        let other = CleverTap.instance(with: config)
        #expect(CleverTap.getGlobalInstance("OTHER") === other && CleverTap.sharedInstance() !== other)
        other.recordEvent("Push received")
        other.profilePush(["Plan": "gold"])
    }

    static func events(_ text: String) -> [[String: Any]] {
        text.split(separator: "\n").compactMap { line in
            guard line.hasPrefix("{") else { return nil }
            return (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        }
    }
}

/// An HTTP server on 127.0.0.1 that holds its one answer until ``answer()`` (a download still running when the test
/// calls `serviceExtensionTimeWillExpire`), then sends a 200 with the body; gone without an answer, it closes the
/// connection. Used by the CleverTap, Iterable, Customer.io and Batch suites.
final class DelayedImageServer: @unchecked Sendable {
    // @unchecked: `gate` and `dropped` are the only state shared with the server's thread; `dropped` is written before
    // the gate is signalled and read after it.
    let port: Int
    private let listener: Int32
    private let gate = DispatchSemaphore(value: 0)
    private nonisolated(unsafe) var dropped = false

    init(contentType: String, body: Data) throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.EIO) }
        listener = descriptor
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
        }
        guard bound == 0, listen(descriptor, 4) == 0 else { throw POSIXError(.EADDRINUSE) }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        let response =
            Data(
                ("HTTP/1.1 200 OK\r\nContent-Type: \(contentType)\r\nContent-Length: \(body.count)\r\n"
                    + "Connection: close\r\n\r\n").utf8) + body
        Thread.detachNewThread { [gate] in
            let client = accept(descriptor, nil, nil)
            guard client >= 0 else { return }
            defer { close(client) }
            var buffer = [UInt8](repeating: 0, count: 4096)
            _ = read(client, &buffer, buffer.count)
            gate.wait()
            if self.dropped { return }
            response.withUnsafeBytes { bytes in
                var offset = 0
                while offset < bytes.count {
                    let written = write(client, bytes.baseAddress! + offset, bytes.count - offset)
                    if written <= 0 { break }
                    offset += written
                }
            }
        }
    }

    /// Sends the answer now.
    func answer() {
        gate.signal()
    }

    /// Closes the connection without an answer.
    func drop() {
        dropped = true
        gate.signal()
    }

    deinit {
        close(listener)
    }
}
