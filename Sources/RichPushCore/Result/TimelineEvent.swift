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
        /// A vendor's SDK would have sent this request besides the image (a delivery receipt, an analytics event):
        /// recorded, never sent.
        case sdkWouldSend
        /// A vendor's SDK, inside a team's extension, attached no image: its reason.
        case sdkImageFailed
        /// A team's extension's notification reached its process: which process (pid, how many it had served, its
        /// age) and which instance.
        case extensionProcess
        /// The handler delivered another notification's content: state shared between the notifications of one
        /// process.
        case crossTalk
        /// An Apple framework in a team's extension did something differently than on a phone, said once (a
        /// keychain lookup that found nothing: the extension's keychain is empty under richpush).
        case frameworkNote
        /// A team's extension called `UNUserNotificationCenter.current()`: the call and what it did ("removed delivered
        /// notification …", "the app icon's badge is 3").
        case notificationCenter
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
