import Firebase
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Firebase's extension written as teams write it (Firebase's sample, with the variants seen in apps: the umbrella
/// import, `FirebaseApp.configure()`, the delivery metrics): it must compile against the modules as it is.
final class FirebaseStyleService: UNNotificationServiceExtension, @unchecked Sendable {
    // @unchecked: iOS calls an extension's methods one at a time; so do these tests.
    var contentHandler: ((UNNotificationContent) -> Void)?
    var bestAttemptContent: UNMutableNotificationContent?
    // A helper of its own, as some apps make one (Firebase's sample uses `Messaging.serviceExtension()`, one for the
    // process, which keeps only the last call's handler: other suites call it at the same time).
    let helper = FIRMessagingExtensionHelper()

    override func didReceive(
        _ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
    ) {
        if FirebaseApp.app() == nil { FirebaseApp.configure() }
        FirebaseConfiguration.shared.setLoggerLevel(.min)
        self.contentHandler = contentHandler
        bestAttemptContent = request.content.mutableCopy() as? UNMutableNotificationContent
        guard let bestAttemptContent else { return contentHandler(request.content) }
        bestAttemptContent.title = "\(bestAttemptContent.title) [modified]"
        Messaging.messaging().appDidReceiveMessage(request.content.userInfo)
        Messaging.serviceExtension().exportDeliveryMetricsToBigQuery(withMessageInfo: request.content.userInfo)
        helper.populateNotificationContent(bestAttemptContent, withContentHandler: contentHandler)
    }

    override func serviceExtensionTimeWillExpire() {
        if let contentHandler, let bestAttemptContent { contentHandler(bestAttemptContent) }
    }
}

@Suite("Firebase: the extension helper and the delivery metrics, as FirebaseMessaging's")
struct FirebaseTests {
    static func request(_ userInfo: [String: Any]) -> UNNotificationRequest {
        let content = UNMutableNotificationContent()
        content.title = "Sale"
        content.body = "Everything must go"
        content.userInfo = userInfo
        return UNNotificationRequest(identifier: "firebase-test", content: content)
    }

    @Test("no fcm_options.image: the handler is called once, at once, with the content the extension edited")
    func noImage() {
        let calls = HandlerCalls()
        FirebaseStyleService().didReceive(Self.request(["aps": ["alert": "x"]]), withContentHandler: calls.record)
        #expect(calls.all.count == 1)
        #expect(calls.all.first?.title == "Sale [modified]" && calls.all.first?.attachments.isEmpty == true)
    }

    @Test("an image without an extension served as image/png is attached as a PNG, with identifier \"\"")
    func imageAttached() async throws {
        let server = try LocalHTTPServer(contentType: "image/png", body: Data(repeating: 0x89, count: 500))
        let calls = HandlerCalls()
        FirebaseStyleService().didReceive(
            Self.request(["fcm_options": ["image": "http://127.0.0.1:\(server.port)/banner"]]),
            withContentHandler: calls.record)
        try await calls.firstCall()
        #expect(calls.all.count == 1)
        let attachment = try #require(calls.all.first?.attachments.first)
        defer { try? FileManager.default.removeItem(at: attachment.url) }
        #expect(calls.all.first?.attachments.count == 1 && calls.all.first?.title == "Sale [modified]")
        #expect(attachment.identifier == "" && attachment.type == "public.png" && attachment.url.pathExtension == "png")
        withExtendedLifetime(server) {}
    }

    @Test("a failed download: one call without an attachment, logged as Firebase logs it and reported to richpush")
    func failureReported() async throws {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            // A process of its own: the events go to standard error, read by the parent.
            setenv("RICHPUSH_EVENTS_FD", "2", 1)
            let calls = HandlerCalls()
            FirebaseStyleService().didReceive(
                FirebaseTests.request(["fcm_options": ["image": "https://127.0.0.1:1/cat.png"]]),
                withContentHandler: calls.record)
            try await calls.firstCall()
            exit(calls.all.count == 1 && calls.all.first?.attachments.isEmpty == true ? 0 : 1)
        }
        let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        let failures = HostChannelLines.parse(output).filter { $0["event"] as? String == "imageFailed" }
        #expect(failures.count == 1 && failures.first?["vendor"] as? String == "firebase", "\(output)")
        #expect(failures.first?["reason"] as? String == "networkError", "\(output)")
        #expect(output.contains("[FirebaseMessaging][I-FCM020001] Failed to download image given URL"), "\(output)")
    }

    @Test("a file without an extension or an image/ type is refused by iOS: reported as attachmentRejected")
    func unnamedRefused() async throws {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            setenv("RICHPUSH_EVENTS_FD", "2", 1)
            let server = try LocalHTTPServer(contentType: "application/octet-stream", body: Data(count: 100))
            let calls = HandlerCalls()
            FirebaseStyleService().didReceive(
                FirebaseTests.request(["fcm_options": ["image": "http://127.0.0.1:\(server.port)/banner"]]),
                withContentHandler: calls.record)
            try await calls.firstCall()
            withExtendedLifetime(server) {}
            exit(calls.all.count == 1 && calls.all.first?.attachments.isEmpty == true ? 0 : 1)
        }
        let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        let failures = HostChannelLines.parse(output).filter { $0["event"] as? String == "imageFailed" }
        #expect(failures.first?["reason"] as? String == "attachmentRejected", "\(output)")
        #expect(output.contains("[FirebaseMessaging][I-FCM020003]"), "\(output)")
    }

    @Test("the delivery metrics: recorded as what Firebase would send when the payload has its three keys")
    func deliveryMetrics() async throws {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            setenv("RICHPUSH_EVENTS_FD", "2", 1)
            let helper = Messaging.serviceExtension()
            helper.exportDeliveryMetricsToBigQuery(withMessageInfo: [
                "google.c.sender.id": "1234", "gcm.message_id": "m-1", "google.c.fid": "fid-1",
                "google.c.a.c_l": "spring",
            ])
            helper.exportDeliveryMetricsToBigQuery(withMessageInfo: ["gcm.message_id": "m-2", "google.c.fid": "f"])
            helper.exportDeliveryMetricsToBigQuery(withMessageInfo: ["google.c.sender.id": "1", "google.c.fid": "f"])
            exit(0)
        }
        let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        let sent = HostChannelLines.parse(output).filter { $0["event"] as? String == "wouldSend" }
        #expect(sent.count == 1, "\(output)")
        let request = try #require(sent.first?["request"] as? [String: Any])
        #expect(request["url"] as? String == "https://firebaselogging.googleapis.com/v0cc/log/batch")
        let fields = request["fields"] as? [String] ?? []
        #expect(fields.contains("project_number=1234") && fields.contains("message_id=m-1"), "\(fields)")
        #expect(fields.contains("composer_label=spring"), "\(fields)")
        #expect(output.contains("[FirebaseMessaging][I-FCM002005] Delivery logging failed: Invalid project ID"))
        #expect(output.contains("[FirebaseMessaging][I-FCM002006] Delivery logging failed: Invalid Message ID"))
    }

    @Test("FirebaseCore: configure makes the default app once; the app-side Messaging calls complete with an error")
    func appSide() {
        FirebaseApp.configure()
        let app = FirebaseApp.app()
        FirebaseApp.configure(options: FirebaseOptions(googleAppID: "1:2:ios:3", gcmSenderID: "2"))
        #expect(app != nil && FirebaseApp.app() === app && FirebaseApp.allApps?.count ?? 0 >= 1)
        var errors: [any Error] = []
        Messaging.messaging().subscribe(toTopic: "news") { errors.append($0!) }
        Messaging.messaging().register { errors.append($0!) }
        #expect(errors.map { ($0 as NSError).domain } == [MessagingErrorDomain, MessagingErrorDomain])
        #expect(Messaging.messaging().isInstallationIdEnabled == false)
    }
}

/// The events a vendor module wrote on the host channel, read back from the text they were written to.
enum HostChannelLines {
    static func parse(_ text: String) -> [[String: Any]] {
        text.split(separator: "\n").compactMap { line in
            guard line.hasPrefix("{") else { return nil }
            return (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        }
    }
}
