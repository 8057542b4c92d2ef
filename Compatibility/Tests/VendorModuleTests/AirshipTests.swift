import AirshipAppExtensions
import AirshipExtensions
import AirshipNotificationServiceExtension
import AirshipServiceExtension
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Airship's extension as its guide has apps write it: an empty subclass.
final class AirshipStyleService: UANotificationServiceExtension, @unchecked Sendable {}

/// The repository's sample: a subclass that asks for every log line.
final class AirshipVerboseService: UANotificationServiceExtension, @unchecked Sendable {
    override var airshipConfig: AirshipExtensionConfig {
        AirshipExtensionConfig(logLevel: .verbose, logHandler: .publicLogger)
    }
}

/// An app's own subclass that wraps the handler around `super`'s.
final class AirshipWrappingService: UANotificationServiceExtension, @unchecked Sendable {
    override func didReceive(
        _ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
    ) {
        super.didReceive(request) { content in
            let edited = content.mutableCopy() as? UNMutableNotificationContent
            edited?.threadIdentifier = request.isAirship ? "airship" : "other"
            contentHandler(edited ?? content)
        }
    }
}

@Suite("Airship: every URL at once, all or nothing, the text only with every image, the original on expiry")
struct AirshipTests {
    static let key = "com.urbanairship.media_attachment"

    static func request(_ userInfo: [String: Any]) -> UNNotificationRequest {
        let content = UNMutableNotificationContent()
        content.title = "Sale"
        content.body = "Everything must go"
        content.userInfo = userInfo
        return UNNotificationRequest(identifier: "ua-test", content: content)
    }

    @Test("no media payload: the handler gets the request's own content, once")
    func noMedia() async throws {
        let request = Self.request(["_": "push-id"])
        let calls = HandlerCalls()
        AirshipStyleService().didReceive(request, withContentHandler: calls.record)
        try await calls.firstCall()
        #expect(calls.all.count == 1 && calls.all.first === request.content)
    }

    @Test("two images: both attached in the payload's order, then the payload's text replaces the notification's")
    func imagesAndText() async throws {
        let png = try LocalHTTPServer(contentType: "image/png", body: Data(repeating: 0x89, count: 300))
        let jpeg = try LocalHTTPServer(contentType: "application/octet-stream", body: Data(repeating: 1, count: 300))
        let media: [String: Any] = [
            "urls": [
                ["url": "http://127.0.0.1:\(png.port)/banner", "url_id": "a"],
                ["url": "http://127.0.0.1:\(jpeg.port)/images/photo.JPG", "url_id": "b"],
            ],
            "content": ["title": "Flash sale", "body": "Today only"],
        ]
        let calls = HandlerCalls()
        AirshipWrappingService().didReceive(Self.request([Self.key: media]), withContentHandler: calls.record)
        try await calls.firstCall()
        #expect(calls.all.count == 1)
        let content = try #require(calls.all.first)
        defer { for attachment in content.attachments { try? FileManager.default.removeItem(at: attachment.url) } }
        // No supported suffix on "-banner": typed by the MIME type; "-photo.JPG" is one (case does not matter).
        #expect(content.attachments.map(\.type) == ["public.png", "public.jpeg"])
        #expect(content.attachments.last?.url.lastPathComponent.hasSuffix("JPG") == true)
        #expect(content.title == "Flash sale" && content.body == "Today only" && content.subtitle == "")
        #expect(content.threadIdentifier == "airship")
        withExtendedLifetime((png, jpeg)) {}
    }

    @Test("one image of two fails: none attached, no text replaced, the failure reported to richpush")
    func allOrNothing() async throws {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            setenv("RICHPUSH_EVENTS_FD", "2", 1)
            let png = try LocalHTTPServer(contentType: "image/png", body: Data(repeating: 0x89, count: 300))
            let media: [String: Any] = [
                "url": ["http://127.0.0.1:\(png.port)/banner.png", "https://127.0.0.1:1/cat.png"],
                "content": ["title": "Flash sale"],
            ]
            let calls = HandlerCalls()
            AirshipStyleService().didReceive(
                AirshipTests.request([AirshipTests.key: media]), withContentHandler: calls.record)
            try await calls.firstCall()
            withExtendedLifetime(png) {}
            let first = calls.all.first
            exit(calls.all.count == 1 && first?.attachments.isEmpty == true && first?.title == "Sale" ? 0 : 1)
        }
        let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        let failure = try #require(HostChannelLines.parse(output).first { $0["event"] as? String == "imageFailed" })
        #expect(failure["vendor"] as? String == "airship" && failure["reason"] as? String == "networkError")
        #expect((failure["detail"] as? String)?.contains("drops every attachment") == true, "\(output)")
        // Airship's default logging: errors, on standard error here.
        #expect(output.contains("[E] ") && output.contains("Failed to apply mutations to request ua-test"), "\(output)")
    }

    @Test("urls with a value that is not a string: the payload does not decode, an unchanged copy, no download")
    func doesNotDecode() async throws {
        let media: [String: Any] = ["urls": [["url": "https://127.0.0.1:1/cat.png", "url_id": 7]]]
        let request = Self.request([Self.key: media])
        let calls = HandlerCalls()
        AirshipVerboseService().didReceive(request, withContentHandler: calls.record)
        #expect(calls.all.count == 1 && calls.all.first !== request.content)
        #expect(calls.all.first?.title == "Sale" && calls.all.first?.attachments.isEmpty == true)
    }

    @Test("expiry while downloading: the request's original content, and the download delivers nothing after it")
    func expiry() async throws {
        let silent = try UnansweredHTTPServer()
        let media: [String: Any] = ["url": "http://127.0.0.1:\(silent.port)/slow.png"]
        let request = Self.request([Self.key: media])
        let calls = HandlerCalls()
        let service = AirshipStyleService()
        service.didReceive(request, withContentHandler: calls.record)
        try await Task.sleep(for: .milliseconds(200))
        #expect(calls.all.isEmpty)
        service.serviceExtensionTimeWillExpire()
        service.serviceExtensionTimeWillExpire()
        #expect(calls.all.count == 1 && calls.all.first === request.content)
        withExtendedLifetime(silent) {}
    }

    @Test("isAirship: media, Airship's metadata or its push id")
    func isAirship() {
        #expect(Self.request([Self.key: ["url": "x"]]).containsAirshipMediaAttachments)
        #expect(Self.request(["com.urbanairship.metadata": "m"]).isAirship)
        #expect(!Self.request(["ab": ["att": [:]]]).isAirship)
    }
}

/// A server that takes connections and never answers: a download that runs until it is given up.
final class UnansweredHTTPServer: @unchecked Sendable {
    // @unchecked: immutable after init.
    let port: Int
    private let listener: Int32

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

    deinit {
        close(listener)
    }
}
