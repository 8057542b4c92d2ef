public import Foundation

/// The network side of the service extension: fetches one image under the extension's rules.
///
/// Implementations must honour task cancellation promptly: the extension runtime cancels the download
/// when the download timeout or the extension budget runs out.
public protocol ImageDownloading: Sendable {
    /// Downloads `url` and returns the stored image, or throws a ``DownloadFailure``.
    func download(
        _ url: URL,
        limits: DownloadLimits,
        events: @escaping @Sendable (DownloadEvent) -> Void
    ) async throws -> DownloadedImage

    /// Called when a downloaded image will not be shown, so its temporary file can go.
    func discard(_ image: DownloadedImage) async

    /// Called when a shown attachment's file is no longer needed (its result is reported), so it can go.
    func discardAttachment(atPath file: String) async

    /// True when ``download(_:limits:events:)`` itself ends by `limits.timeout` with
    /// ``DownloadFailure/timeout(after:)``, and keeps no file of a download that ended late or was cancelled. The
    /// extension runtime then runs no timer of its own beside each download; otherwise (the default) it races the
    /// download against one on its clock.
    var enforcesTimeout: Bool { get }
}

extension ImageDownloading {
    /// Keeps the file: a downloader whose files need no removal.
    public func discardAttachment(atPath file: String) async {}

    /// The extension runtime times each download.
    public var enforcesTimeout: Bool { false }
}

/// The rules one download runs under.
public struct DownloadLimits: Sendable, Equatable {
    /// One deadline for the whole download, redirects included.
    public var timeout: Duration
    /// Largest accepted body; iOS refuses image attachments over 10 MB.
    public var maxBytes: Int
    /// Redirect hops followed before giving up.
    public var maxRedirects: Int
    /// What the extension requires of the response's Content-Type.
    public var contentTypeRule: ContentTypeRule
    /// Whether a non-2xx response's body is read like any other, for an extension that does not look at the status.
    public var acceptsAnyStatus: Bool

    public static let tenMegabytes = 10 * 1024 * 1024

    public init(
        timeout: Duration = .seconds(5), maxBytes: Int = DownloadLimits.tenMegabytes,
        maxRedirects: Int = 5, contentTypeRule: ContentTypeRule = .imageOnly, acceptsAnyStatus: Bool = false
    ) {
        self.timeout = timeout
        self.maxBytes = maxBytes
        self.maxRedirects = maxRedirects
        self.contentTypeRule = contentTypeRule
        self.acceptsAnyStatus = acceptsAnyStatus
    }
}

/// Progress a download reports while it runs.
public enum DownloadEvent: Sendable, Equatable {
    /// A request went out to this URL.
    case requestSent(URL)
    /// The server redirected to this URL.
    case redirect(URL)
    /// Response headers arrived; `expectedBytes` is the Content-Length when given.
    case responseReceived(status: Int, contentType: String?, expectedBytes: Int?)
    /// Body bytes received so far.
    case bytesReceived(Int)
}

/// A downloaded image, stored in a local file named from its detected format.
public struct DownloadedImage: Sendable, Equatable {
    public var file: URL
    public var format: ImageFormat
    public var width: Int
    public var height: Int
    public var frames: Int
    public var bytes: Int
    public var sha256: String
    /// The Content-Type the server sent.
    public var servedContentType: String?
    /// The Content-Disposition the server sent, which `URLResponse.suggestedFilename` reads first.
    public var servedContentDisposition: String?

    public init(
        file: URL, format: ImageFormat, width: Int, height: Int, frames: Int, bytes: Int,
        sha256: String,
        servedContentType: String?, servedContentDisposition: String? = nil
    ) {
        self.file = file
        self.format = format
        self.width = width
        self.height = height
        self.frames = frames
        self.bytes = bytes
        self.sha256 = sha256
        self.servedContentType = servedContentType
        self.servedContentDisposition = servedContentDisposition
    }
}

/// Why a download failed, as a fallback reason code with a detail for people.
public struct DownloadFailure: Error, Sendable, Equatable, CustomStringConvertible {
    public var reason: FallbackReason
    public var detail: String
    /// The body that arrived whole but is no image a notification shows: what an extension that does not check would
    /// still name and attach.
    public var body: ServedBody?

    public init(_ reason: FallbackReason, _ detail: String) {
        self.reason = reason
        self.detail = detail
    }

    public var description: String { "\(reason.rawValue): \(detail)" }

    /// The same failure: the same reason and words (the body it carries is a by-product).
    public static func == (lhs: DownloadFailure, rhs: DownloadFailure) -> Bool {
        lhs.reason == rhs.reason && lhs.detail == rhs.detail
    }

    /// The download did not finish within its deadline; the runtime and the downloader say it alike.
    public static func timeout(after limit: Duration) -> DownloadFailure {
        DownloadFailure(.timeout, "no complete image within \(limit.shortDescription)")
    }
}

/// A response body richpush read to its end and found no image of a type a notification shows.
public struct ServedBody: Sendable, Equatable {
    public var status: Int
    public var contentType: String?
    public var contentDisposition: String?
    /// Its first bytes (at most eight).
    public var head: [UInt8]

    public init(status: Int, contentType: String?, contentDisposition: String?, head: [UInt8]) {
        self.status = status
        self.contentType = contentType
        self.contentDisposition = contentDisposition
        self.head = head
    }
}

extension ImageDownloading {
    /// Downloaders that keep no files have nothing to discard.
    public func discard(_ image: DownloadedImage) async {}
}
