public import Foundation

/// The network side of a display receipt: the extension tells the app's statistics API that a notification
/// arrived, as extensions that count displays do (`POST push_id=<id>`, form-encoded).
///
/// Implementations send one request and return the HTTP status the server answered with, or throw a
/// ``ReceiptFailure`` when no answer came. They must honour task cancellation promptly: the extension runtime
/// cancels a receipt still in flight when the extension's budget runs out (on a device the process is ended).
public protocol ReceiptSending: Sendable {
    /// Sends `receipt` and returns the HTTP status of the answer.
    func send(_ receipt: DisplayReceipt) async throws -> Int
}

/// One display receipt: where it goes and the push id it reports.
public struct DisplayReceipt: Sendable, Equatable {
    /// The statistics endpoint; https only (App Transport Security).
    public var url: URL
    /// The push id read from the payload.
    public var pushID: String

    public init(url: URL, pushID: String) {
        self.url = url
        self.pushID = pushID
    }

    /// The request body: `push_id=<id>`, form-encoded (`application/x-www-form-urlencoded`).
    public var formBody: String { "push_id=\(FormEncoding.encode(pushID, plus: .space))" }
}

/// Why a receipt got no answer (connection, TLS, timeout), in words for people.
public struct ReceiptFailure: Error, Sendable, Equatable, CustomStringConvertible {
    public var detail: String

    public init(_ detail: String) { self.detail = detail }

    public var description: String { detail }
}

/// What became of the display receipt, in the result contract's `receipt` object.
public struct ReceiptReport: Sendable, Equatable {
    /// The statistics endpoint, as configured.
    public var url: String
    public var pushID: String
    /// The HTTP status answered; nil when no answer came.
    public var status: Int?
    /// Why the receipt failed (a non-2xx status, no answer, cancelled); nil when it succeeded.
    public var error: String?
    /// The receipt ended after the content handler was called: on a device it may never reach the server.
    public var completedAfterContentHandler: Bool

    public init(
        url: String, pushID: String, status: Int? = nil, error: String? = nil,
        completedAfterContentHandler: Bool = false
    ) {
        self.url = url
        self.pushID = pushID
        self.status = status
        self.error = error
        self.completedAfterContentHandler = completedAfterContentHandler
    }

    /// One line for people: the push id, the answer or the error, and whether it ended in time.
    public var summary: String {
        let outcome =
            switch (status, error) {
            case (let status?, nil): "HTTP \(status)"
            case (_, let error?): "failed: \(error)"
            case (nil, nil): "no answer"
            }
        return "push_id \(pushID): \(outcome), "
            + (completedAfterContentHandler ? "after the content handler" : "before the content handler")
    }

    /// The hint for a receipt that ended after the content handler, nil otherwise.
    public var hint: String? {
        guard completedAfterContentHandler else { return nil }
        return
            "The display receipt ended after the content handler was called: on a device iOS may suspend or end the extension as soon as the handler is called, so this receipt may never reach the server. Await the receipt before calling the content handler, within the extension's budget."
    }
}
