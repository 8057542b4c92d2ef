import Foundation

/// One vendor's Notification Service Extension, as rules: where it reads the image URL(s), which schemes it hands to
/// the network, its timeout, what it checks of the response, how it names the attachment file (which decides
/// whether iOS's attachment validation accepts it) and how it handles several images.
///
/// Both sides read the same rules: `--sdk VENDOR` in richpush, which downloads with its own client, and the vendor
/// modules a team's extension imports (`OneSignalExtension`, `FirebaseMessaging`, …), which download with
/// URLSession inside the extension's process. iOS's own rules (mutable-content, alert text, foreground, the 30 s
/// budget, attachment validation) are the system's and not part of them.
///
/// A vendor is one file in this folder, each rule beside the source file and version it was read in, and its name
/// in ``Vendors/all``.
public protocol VendorRules: Sendable {
    /// The name on the command line and in results: `requirement`, `firebase`, `onesignal`, …
    var name: String { get }
    /// The vendor and the extension class, for people.
    var title: String { get }
    /// Where the rules were read: repository, file and version.
    var source: String { get }
    /// What a team's project names of the vendor's SDK: its modules, base classes, pods and packages; nil for
    /// richpush's own extension.
    var sdk: VendorSDK? { get }

    /// The key paths the extension reads the image from, for hints and documentation.
    var imageKeyPaths: [PayloadKeyPath] { get }
    /// The image URLs the extension reads from `payload`, in the order it fetches them (one when it fetches one).
    func imageRequests<Node: PayloadNode>(in payload: Node) -> [ImageRequest]
    /// When the payload has the image but lacks what the extension needs beside it (a type), one sentence saying
    /// so; nil otherwise.
    func missingCompanionHint<Node: PayloadNode>(in payload: Node) -> String?
    /// True for richpush's own extension, whose image keys are the configured ones (`--image-key`).
    var usesConfiguredImageKeys: Bool { get }

    var schemes: SchemeRule { get }
    /// What the extension does with an image URL before any request: the URL to fetch, or why it fetches nothing.
    func check(imageURL text: String) -> Result<URL, Refusal>
    var timeout: TimeoutRule { get }
    var contentType: ContentTypeRule { get }
    /// Whether the extension looks at the HTTP status: when it does not (a URLSession completion handler that checks
    /// only `error`), an error page is saved and attached like an image.
    var checksStatus: Bool { get }
    var size: SizeRule { get }
    /// The name the extension gives a downloaded file (and the type hint it passes), or why it attaches nothing.
    func attachmentName(for file: DownloadedFile) -> Result<AttachmentName, Refusal>
    var plurality: Plurality { get }

    /// What the SDK would send besides the image for this payload (a delivery receipt, an analytics event), which
    /// richpush records and never sends.
    func wouldSend<Node: PayloadNode>(for payload: Node) -> [WouldSend]

    /// Why the SDK never calls the content handler for this payload (not its own message, say), so that iOS ends the
    /// extension at its budget; nil when it does call it.
    func withheldContentHandler<Node: PayloadNode>(for payload: Node) -> String?
}

extension VendorRules {
    public func missingCompanionHint<Node: PayloadNode>(in payload: Node) -> String? { nil }
    public var usesConfiguredImageKeys: Bool { false }
    public var sdk: VendorSDK? { nil }
    public var checksStatus: Bool { false }
    public func wouldSend<Node: PayloadNode>(for payload: Node) -> [WouldSend] { [] }
    public func withheldContentHandler<Node: PayloadNode>(for payload: Node) -> String? { nil }

    public func check(imageURL text: String) -> Result<URL, Refusal> { standardCheck(imageURL: text) }

    /// The checks every extension's URL goes through: an absolute URL with a scheme; https only, said the way the
    /// extension refuses it (its own check, or App Transport Security under URLSession); a host; a valid port.
    public func standardCheck(imageURL text: String) -> Result<URL, Refusal> {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), !scheme.isEmpty else {
            return .failure(Refusal(.invalidURL, "\"\(text)\" is not an absolute URL"))
        }
        guard scheme == "https" else {
            let written = text.lowercased().hasPrefix("\(scheme)://") ? "\(scheme)://" : "\(scheme):"
            let detail =
                switch schemes {
                case .httpsOnly:
                    "\(written) image URLs are refused; only https is downloaded (App Transport Security)"
                case .urlSession:
                    "\(title) hands \(written) to NSURLSession, where App Transport Security allows only https"
                }
            return .failure(Refusal(.insecureURL, detail))
        }
        guard let host = url.host, !host.isEmpty else {
            return .failure(Refusal(.invalidURL, "\"\(text)\" has no host"))
        }
        if let port = url.port, !(1...65535).contains(port) {
            return .failure(Refusal(.invalidURL, "port \(port) is out of range (1-65535)"))
        }
        return .success(url)
    }

    /// The download deadline, given the configured one (`--download-timeout`).
    public func downloadTimeout(configured: Duration) -> Duration {
        switch timeout {
        case .configured: configured
        case .fixed(let duration): duration
        }
    }

    /// The largest body the download accepts, given the configured cap (`--extension-max-bytes`).
    public func downloadMaxBytes(configured: Int) -> Int {
        switch size {
        case .configured: configured
        case .contentLengthOver(let bytes): bytes
        case .unchecked: Vendors.safetyCapBytes
        }
    }
}

/// One image URL the extension will fetch, with the type the payload gave beside it.
public struct ImageRequest: Sendable, Equatable {
    public var keyPath: PayloadKeyPath
    public var url: String
    public var type: String?

    public init(keyPath: PayloadKeyPath, url: String, type: String? = nil) {
        self.keyPath = keyPath
        self.url = url
        self.type = type
    }
}

/// What the extension does with the URL's scheme.
public enum SchemeRule: Sendable, Equatable {
    /// https only, checked before any request (richpush's own extension).
    case httpsOnly
    /// The URL goes to NSURLSession, where App Transport Security blocks anything but https.
    case urlSession
}

/// The download deadline.
public enum TimeoutRule: Sendable, Equatable {
    /// `--download-timeout` / `given.downloadTimeout` (richpush's own extension, 5 s by default).
    case configured
    /// What the SDK's URLSession configuration sets, or its default.
    case fixed(Duration)
}

/// What the extension requires of the response's Content-Type.
public enum ContentTypeRule: String, Sendable, Equatable {
    /// `image/*` or the download fails with `notAnImage` before the body is read (richpush's own extension).
    case imageOnly
    /// Any Content-Type, or none: the extension does not look at it (the bytes still decide what the file is).
    case ignored
}

/// What the extension checks of the image's size.
public enum SizeRule: Sendable, Equatable {
    /// `--extension-max-bytes` (10 MB by default), before and while reading.
    case configured
    /// A Content-Length over this many bytes cancels the download.
    case contentLengthOver(Int)
    /// Not checked (richpush still stops at ``Vendors/safetyCapBytes``).
    case unchecked
}

/// How the extension handles several image URLs.
public enum Plurality: Sendable, Equatable {
    /// One URL.
    case first
    /// Each URL in turn; one that fails is skipped.
    case eachInTurn
    /// All URLs at once; one failure drops them all.
    case allOrNothing
}

/// A downloaded file as the extension's naming code sees it.
public struct DownloadedFile: Sendable {
    /// The URL it was requested from.
    public var url: URL
    /// The type the payload gave beside the URL (``ImageRequest/type``).
    public var payloadType: String?
    /// The file's name now, in the download's folder.
    public var name: String
    /// The response's media type (`image/png`, lowercased, no parameters); nil without a Content-Type.
    public var mediaType: String?
    /// The response's Content-Disposition, when it sent one.
    public var contentDisposition: String?
    /// The file's first bytes, read only by a rule that looks at them.
    public var head: @Sendable () -> [UInt8]

    public init(
        url: URL, payloadType: String?, name: String, mediaType: String?, contentDisposition: String? = nil,
        head: @escaping @Sendable () -> [UInt8]
    ) {
        self.url = url
        self.payloadType = payloadType
        self.name = name
        self.mediaType = mediaType
        self.contentDisposition = contentDisposition
        self.head = head
    }

    /// `URLResponse.suggestedFilename` for this download (``FileNaming/suggestedFilename(url:mediaType:contentDisposition:)``).
    public var suggestedFilename: String {
        FileNaming.suggestedFilename(url: url, mediaType: mediaType, contentDisposition: contentDisposition)
    }

    /// The first bytes of the file at `file`, for ``head``: at most eight, none when it cannot be read.
    public static func head(of file: URL) -> [UInt8] {
        guard let handle = try? FileHandle(forReadingFrom: file) else { return [] }
        defer { try? handle.close() }
        return [UInt8]((try? handle.read(upToCount: 8)) ?? Data())
    }

    /// The name without its extension.
    public var stem: String {
        let fileExtension = FileNaming.fileExtension(of: name)
        return fileExtension.isEmpty ? name : String(name.dropLast(fileExtension.count + 1))
    }
}

/// What an extension's naming rule makes of a download: the file's new name in the download's folder and the type
/// hint it passes to iOS.
public struct AttachmentName: Sendable, Equatable {
    public var fileName: String
    /// `UNNotificationAttachmentOptionsTypeHintKey`, when the extension passes one.
    public var typeHint: String?

    public init(fileName: String, typeHint: String? = nil) {
        self.fileName = fileName
        self.typeHint = typeHint
    }
}

/// Why an extension fetches or attaches nothing, in the result contract's terms.
public struct Refusal: Error, Sendable, Equatable {
    public enum Reason: String, Sendable {
        case invalidURL, insecureURL, unsupportedImageType
    }

    public var reason: Reason
    public var detail: String

    public init(_ reason: Reason, _ detail: String) {
        self.reason = reason
        self.detail = detail
    }
}

/// What a team's project names of a vendor's SDK, so richpush can tell which vendor an extension uses: the modules its
/// code imports (every generation still in use), the classes it may subclass, the CocoaPods pods and the Swift
/// packages that bring them.
public struct VendorSDK: Sendable, Equatable {
    /// Module names, as `import` writes them.
    public var modules: [String]
    /// Base classes an extension subclasses (themselves subclasses of `UNNotificationServiceExtension`), as the
    /// vendor's module spells them.
    public var baseClasses: [String]
    /// CocoaPods pod names (a subspec `Pod/Sub` counts as its pod).
    public var pods: [String]
    /// Swift packages, by the last component of their repository URL (`firebase-ios-sdk`), lowercased.
    public var packages: [String]

    public init(modules: [String], baseClasses: [String] = [], pods: [String] = [], packages: [String] = []) {
        self.modules = modules
        self.baseClasses = baseClasses
        self.pods = pods
        self.packages = packages
    }
}

/// A request the SDK would make besides the image: recorded in the timeline, never sent.
public struct WouldSend: Sendable, Equatable {
    public var method: String
    public var url: String
    /// The key fields of its body or query, in order.
    public var fields: [(String, String)]
    /// When or why it is sent ("after a random delay of up to 24 s", "only with an app id in the App Group").
    public var note: String?

    public init(method: String, url: String, fields: [(String, String)] = [], note: String? = nil) {
        self.method = method
        self.url = url
        self.fields = fields
        self.note = note
    }

    /// One line for the timeline: `POST https://host/path push_id=…, app_id=… (when …)`.
    public var summary: String {
        let body = fields.map { "\($0)=\($1)" }.joined(separator: ", ")
        return "\(method) \(url)" + (body.isEmpty ? "" : " \(body)") + (note.map { " (\($0))" } ?? "")
    }

    public static func == (lhs: WouldSend, rhs: WouldSend) -> Bool {
        lhs.method == rhs.method && lhs.url == rhs.url && lhs.note == rhs.note
            && lhs.fields.map { "\($0)=\($1)" } == rhs.fields.map { "\($0)=\($1)" }
    }
}
