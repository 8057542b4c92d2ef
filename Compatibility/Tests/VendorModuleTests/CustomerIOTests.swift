import CioMessagingPush
import CioMessagingPushAPN
import CioMessagingPushFCM
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Customer.io's guide for an app with another push provider: initialise, let Customer.io handle its pushes, deliver
/// the others.
final class CustomerIOGuideService: UNNotificationServiceExtension, @unchecked Sendable {
    // @unchecked: iOS calls an extension's methods one at a time; so do these tests.
    var handled: Bool?

    override func didReceive(
        _ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
    ) {
        MessagingPushAPN.initializeForExtension(
            withConfig: MessagingPushConfigBuilder(cdpApiKey: "key").region(.US).logLevel(.error).build())
        handled = CioMessagingPushAPN.MessagingPush.shared.didReceive(request, withContentHandler: contentHandler)
    }

    override func serviceExtensionTimeWillExpire() {
        CioMessagingPushAPN.MessagingPush.shared.serviceExtensionTimeWillExpire()
    }
}

/// Serialized: `MessagingPush.shared` is one for the process, initialised once.
@Suite("Customer.io: MessagingPush handles pushes with a delivery id and token, by the customerio rules", .serialized)
struct CustomerIOTests {
    static func request(_ userInfo: [String: Any]) -> UNNotificationRequest {
        let content = UNMutableNotificationContent()
        content.title = "Sale"
        content.body = "Everything must go"
        content.userInfo = userInfo
        return UNNotificationRequest(identifier: "cio-test", content: content)
    }

    static let delivery = ["CIO-Delivery-ID": "dlv-1", "CIO-Delivery-Token": "tok-1"]

    @Test("never initialised: the handler gets the content unchanged and didReceive returns false")
    func notInitialised() async {
        // A process of its own: in this one the module is initialised by the other tests.
        await #expect(processExitsWith: .success) {
            let calls = HandlerCalls()
            let content = UNMutableNotificationContent()
            content.title = "Sale"
            content.userInfo = ["CIO-Delivery-ID": "dlv-1", "CIO-Delivery-Token": "tok-1"]
            let handled = CioMessagingPush.MessagingPush.shared.didReceive(
                UNNotificationRequest(identifier: "cio", content: content), withContentHandler: calls.record)
            exit(!handled && calls.all.count == 1 && calls.all.first?.title == "Sale" ? 0 : 1)
        }
    }

    @Test("a push without CIO-Delivery-ID and CIO-Delivery-Token: false, and no handler call from Customer.io")
    func notCustomerIO() async throws {
        for userInfo: [String: Any] in [
            ["CIO": ["push": ["image": "https://127.0.0.1:1/a.png"]]],
            ["CIO-Delivery-ID": "d", "CIO-Delivery-Token": 7],
        ] {
            let calls = HandlerCalls()
            let service = CustomerIOGuideService()
            service.didReceive(Self.request(userInfo), withContentHandler: calls.record)
            try await Task.sleep(for: .milliseconds(200))
            #expect(service.handled == false && calls.all.isEmpty)
        }
    }

    @Test("a Customer.io push: true, and one call with CIO.push.image attached (UUID_suggestedFilename: .png)")
    func imageAttached() async throws {
        let server = try LocalHTTPServer(contentType: "application/octet-stream", body: Data(repeating: 4, count: 400))
        var userInfo: [String: Any] = Self.delivery
        userInfo["CIO"] = ["push": ["image": "http://127.0.0.1:\(server.port)/p/photo.png"]]
        let calls = HandlerCalls()
        let service = CustomerIOGuideService()
        service.didReceive(Self.request(userInfo), withContentHandler: calls.record)
        #expect(service.handled == true)
        try await calls.firstCall()
        #expect(calls.all.count == 1)
        let attachment = try #require(calls.all.first?.attachments.first)
        defer { try? FileManager.default.removeItem(at: attachment.url) }
        #expect(attachment.type == "public.png")
        withExtendedLifetime(server) {}
    }

    @Test("timeWillExpire delivers the original content once; the download's end calls nothing more")
    func expiry() async throws {
        let server = try DelayedImageServer(contentType: "image/png", body: Data(repeating: 4, count: 300))
        var userInfo: [String: Any] = Self.delivery
        userInfo["CIO"] = ["push": ["image": "http://127.0.0.1:\(server.port)/slow.png"]]
        let calls = HandlerCalls()
        let service = CustomerIOGuideService()
        service.didReceive(Self.request(userInfo), withContentHandler: calls.record)
        try await Task.sleep(for: .milliseconds(50))
        service.serviceExtensionTimeWillExpire()
        #expect(calls.all.count == 1 && calls.all.first?.attachments.isEmpty == true)
        // The image arrives after all: nothing more is delivered.
        server.answer()
        try await Task.sleep(for: .milliseconds(300))
        #expect(calls.all.count == 1)
    }

    @Test("the delivered metric is recorded as what Customer.io would send, to the configured region")
    func deliveredRecorded() async throws {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            setenv("RICHPUSH_EVENTS_FD", "2", 1)
            MessagingPushAPN.initializeForExtension(
                withConfig: MessagingPushConfigBuilder(cdpApiKey: "key").region(.EU).build())
            let calls = HandlerCalls()
            let content = UNMutableNotificationContent()
            content.userInfo = ["CIO-Delivery-ID": "dlv-9", "CIO-Delivery-Token": "tok-9"]
            let request = UNNotificationRequest(identifier: "cio-metric", content: content)
            CioMessagingPush.MessagingPush.shared.didReceive(request, withContentHandler: calls.record)
            try await calls.firstCall()
            exit(calls.all.count == 1 ? 0 : 1)
        }
        let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        let sent = CleverTapTests.events(output).filter { $0["event"] as? String == "wouldSend" }
        #expect(sent.count == 1, "\(output)")
        let request = try #require(sent.first?["request"] as? [String: Any])
        #expect(request["url"] as? String == "https://cdp-eu.customer.io/v1/track")
        let fields = request["fields"] as? [String] ?? []
        #expect(fields.contains("anonymousId=dlv-9") && fields.contains("properties.recipient=tok-9"), "\(fields)")
    }

    @Test("with autoTrackPushEvents(false) nothing is recorded, and the push is still handled")
    func noMetricWhenOff() async throws {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            setenv("RICHPUSH_EVENTS_FD", "2", 1)
            MessagingPushFCM.initializeForExtension(
                withConfig: MessagingPushConfigBuilder(cdpApiKey: "key").autoTrackPushEvents(false).build())
            let calls = HandlerCalls()
            let content = UNMutableNotificationContent()
            content.userInfo = ["CIO-Delivery-ID": "dlv-9", "CIO-Delivery-Token": "tok-9"]
            let handled = CioMessagingPush.MessagingPush.shared.didReceive(
                UNNotificationRequest(identifier: "cio-off", content: content), withContentHandler: calls.record)
            try await calls.firstCall()
            exit(handled && calls.all.count == 1 ? 0 : 1)
        }
        let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(!CleverTapTests.events(output).contains { $0["event"] as? String == "wouldSend" }, "\(output)")
    }
}
