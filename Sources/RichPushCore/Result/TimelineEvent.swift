/// One step of a notification's life, timed in seconds since it arrived.
public struct TimelineEvent: Sendable, Equatable {
    public enum Kind: String, Sendable, Codable {
        case received
        case rejected
        case extensionStarted
        /// The extension POSTed its display receipt (it runs beside the image download).
        case receiptSent
        /// The statistics server answered the receipt with a 2xx status.
        case receiptFinished
        /// The receipt got a non-2xx status, no answer, or was cancelled with the extension.
        case receiptFailed
        case downloadStarted
        case redirect
        case downloadProgress
        case downloadFinished
        case downloadFailed
        case attachmentCreated
        case attachmentRejected
        /// The codecs decoded the attachment's pixels (after it was presented; richpush's own check).
        case imageDecoded
        /// The attachment is on the notification but its pixels do not decode; the detail says why.
        case imageDecodeFailed
        case timeWillExpire
        case contentHandlerCalled
        case duplicateCompletionIgnored
        case presented
        /// A request a team's extension made, or one refused on its behalf (method, URL, status, bytes, time).
        case extensionRequest
        /// A team's extension's process ended: how, and when it was ended by the system, why.
        case extensionEnded
    }

    public var at: Double
    public var kind: Kind
    public var detail: String

    public init(at: Double, _ kind: Kind, _ detail: String = "") {
        self.at = at
        self.kind = kind
        self.detail = detail
    }
}
