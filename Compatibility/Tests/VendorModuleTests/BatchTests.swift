import BatchExtension
import Foundation
import Testing

/// Batch's header: the base class, nothing overridden.
final class BatchBaseClassService: BAENotificationServiceExtension, @unchecked Sendable {}

/// An extension of its own with Batch's helper, once per extension instance, as the helper's doc asks.
final class BatchHelperService: UNNotificationServiceExtension, @unchecked Sendable {
    // @unchecked: iOS calls an extension's methods one at a time; so do these tests.
    let batch = RichNotificationHelper()

    override func didReceive(
        _ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
    ) {
        DisplayReceiptHelper().didReceive(request)
        batch.didReceive(request, withContentHandler: contentHandler)
    }

    override func serviceExtensionTimeWillExpire() {
        batch.serviceExtensionTimeWillExpire()
    }
}

@Suite("Batch: RichNotificationHelper by the batch rules; nothing on timeWillExpire")
struct BatchTests {
    static func request(_ userInfo: [String: Any]) -> UNNotificationRequest {
        let content = UNMutableNotificationContent()
        content.title = "Sale"
        content.body = "Everything must go"
        content.userInfo = userInfo
        return UNNotificationRequest(identifier: "batch-test", content: content)
    }

    @Test("without com.batch.at.t the handler gets the original content, once, at once")
    func noType() {
        let calls = HandlerCalls()
        let request = Self.request(["com.batch": ["at": ["u": "https://127.0.0.1:1/a.png"]]])
        BatchBaseClassService().didReceive(request, withContentHandler: calls.record)
        #expect(calls.all.count == 1 && calls.all.first === request.content)
    }

    @Test("the download's own file is attached, typed by com.batch.at.t whatever its URL and Content-Type say")
    func typeHint() async throws {
        let server = try LocalHTTPServer(contentType: "image/jpeg", body: Data(repeating: 5, count: 400))
        let calls = HandlerCalls()
        let request = Self.request([
            "com.batch": ["at": ["u": "http://127.0.0.1:\(server.port)/media", "t": "public.png"]]
        ])
        BatchHelperService().didReceive(request, withContentHandler: calls.record)
        try await calls.firstCall()
        #expect(calls.all.count == 1)
        let attachment = try #require(calls.all.first?.attachments.first)
        defer { try? FileManager.default.removeItem(at: attachment.url) }
        #expect(attachment.type == "public.png" && request.content.attachments.isEmpty)
        withExtendedLifetime(server) {}
    }

    @Test("timeWillExpire does nothing: the handler waits for the download, however long")
    func expiryDoesNothing() async throws {
        let server = try DelayedImageServer(contentType: "image/png", body: Data(repeating: 5, count: 300))
        let calls = HandlerCalls()
        let service = BatchBaseClassService()
        service.didReceive(
            Self.request(["com.batch": ["at": ["u": "http://127.0.0.1:\(server.port)/m", "t": "public.png"]]]),
            withContentHandler: calls.record)
        service.serviceExtensionTimeWillExpire()
        try await Task.sleep(for: .milliseconds(200))
        #expect(calls.all.isEmpty)
        server.answer()
        try await calls.firstCall()
        #expect(calls.all.count == 1 && calls.all.first?.attachments.count == 1)
        for attachment in calls.all.first?.attachments ?? [] { try? FileManager.default.removeItem(at: attachment.url) }
    }

    @Test("appendRichData reports Batch's errors: no rich data, a failed download")
    func errors() async throws {
        let content = UNMutableNotificationContent()
        content.userInfo = ["aps": ["alert": "hi"]]
        var first: (any Error)?
        RichNotificationHelper().appendRichData(toContent: content) { _, error in first = error }
        #expect((first as? RichDataError).map { "\($0)" } == "noRichDataFound")
        #expect((first as NSError?)?.domain == "com.batch.extension.richnotificationhelper")

        let failed = HandlerCalls()
        content.userInfo = ["com.batch": ["at": ["u": "http://127.0.0.1:1/a.png", "t": "public.png"]]]
        let errors = BatchErrors()
        RichNotificationHelper().appendRichData(toContent: content) { result, error in
            errors.record(error)
            if let result { failed.record(result) }
        }
        try await failed.firstCall()
        #expect(failed.all.first === content)
        if case .downloadError = errors.first as? RichDataError {
        } else {
            Issue.record("\(String(describing: errors.first))")
        }
    }

    @Test("3.0.x display receipts: skipped in an App Group that never opted in; nothing is sent")
    func displayReceipts() {
        var error: (any Error)?
        let content = UNMutableNotificationContent()
        DisplayReceiptHelper().processDisplayReceipt(forContent: content) { _, given in error = given }
        #expect((error as NSError?)?.domain == "com.batch.extension.displayreceipthelper")
        #expect(RichNotificationHelper.allowInLowDataMode == false)
    }
}

/// The error a completion handler got, from the download's thread.
final class BatchErrors: @unchecked Sendable {
    // @unchecked: every access holds `lock`.
    private let lock = NSLock()
    private var errors: [(any Error)?] = []

    func record(_ error: (any Error)?) {
        lock.lock()
        defer { lock.unlock() }
        errors.append(error)
    }

    var first: (any Error)? {
        lock.lock()
        defer { lock.unlock() }
        return errors.first ?? nil
    }
}
