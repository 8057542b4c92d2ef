import Foundation

/// One vendor's Notification Service Extension, as data and a few small strategies: where it reads the image
/// URL(s), which schemes it hands to the network, its timeout, what it checks of the response, how it names the
/// attachment file (which decides whether iOS's attachment validation accepts it) and how it handles several
/// attachments. iOS's own rules (mutable-content, alert text, foreground, the 30 s budget, attachment
/// validation) are the same for every profile and are not part of it.
///
/// The default, ``requirement``, is the extension richpush has always emulated. The vendors' profiles live in
/// `Profiles/`, each rule beside the source file and version it was read in.
public struct SDKProfile: Sendable, Equatable, CustomStringConvertible {
    /// The name on the command line and in results: `requirement`, `firebase`, `onesignal`, …
    public var name: String
    /// The vendor and the extension class, for people.
    public var title: String
    /// Where the rules were read: repository, file and version.
    public var source: String
    public var imageSource: ImageSource
    public var schemes: SchemeRule
    public var timeout: TimeoutRule
    public var contentTypeRule: ContentTypeRule
    public var size: SizeRule
    public var naming: NamingRule
    public var plurality: Plurality

    public init(
        name: String, title: String, source: String, imageSource: ImageSource, schemes: SchemeRule,
        timeout: TimeoutRule, contentTypeRule: ContentTypeRule, size: SizeRule, naming: NamingRule,
        plurality: Plurality
    ) {
        self.name = name
        self.title = title
        self.source = source
        self.imageSource = imageSource
        self.schemes = schemes
        self.timeout = timeout
        self.contentTypeRule = contentTypeRule
        self.size = size
        self.naming = naming
        self.plurality = plurality
    }

    public var description: String { name }

    /// Every profile, the default first, in the order of the README's table and the matrix's columns.
    public static let all: [SDKProfile] = [
        .requirement, .firebase, .oneSignal, .airship, .braze, .cleverTap, .iterable, .customerIO, .batch,
    ]

    /// The profile called `name` (case-insensitive), or nil.
    public static func named(_ name: String) -> SDKProfile? {
        all.first { $0.name == name.lowercased() }
    }

    /// The profile after this one in ``all``, wrapping around (the notification center's key cycles with it).
    public var next: SDKProfile {
        let index = Self.all.firstIndex(of: self) ?? 0
        return Self.all[(index + 1) % Self.all.count]
    }

    /// The names, for help texts and errors.
    public static var names: [String] { all.map(\.name) }

    /// richpush's own cap on a download whose SDK does not check the size, so a runaway body cannot fill the
    /// disk. An image between iOS's 10 MB and this cap is downloaded and then refused by iOS.
    public static let safetyCapBytes = 64 * 1024 * 1024

    // MARK: - Rules

    /// Where the extension reads the image URL(s).
    public enum ImageSource: Sendable, Equatable {
        /// The configured ``ImageURLPolicy`` (`--image-key` adds to it): the requirement's extension.
        case configured
        /// One key path holding a string.
        case keyPath(PayloadKeyPath)
        /// A URL and a type that must both be strings; without the type the SDK shows the text only.
        case typed(url: PayloadKeyPath, type: PayloadKeyPath)
        /// OneSignal: every value of the `att` object, or of `os_data.att` when `os_data` is an object.
        case oneSignalAttachments
        /// Airship: `com.urbanairship.media_attachment` with `urls` (objects with `url`), else `url` (a string or
        /// an array of strings).
        case airshipMedia
    }

    /// What the extension does with the URL's scheme.
    public enum SchemeRule: Sendable, Equatable {
        /// https only, checked before any request (the requirement's extension).
        case httpsOnly
        /// The URL goes to NSURLSession, where App Transport Security blocks anything but https.
        case urlSession
        /// http and https go to NSURLSession (ATS blocks http); any other string names a file in the app bundle.
        case oneSignal
    }

    /// The download deadline.
    public enum TimeoutRule: Sendable, Equatable {
        /// `--download-timeout` / `given.downloadTimeout` (the requirement's extension, 5 s by default).
        case configured
        /// What the SDK's URLSession configuration sets, or its default.
        case fixed(Duration)
    }

    /// What the extension checks of the image's size.
    public enum SizeRule: Sendable, Equatable {
        /// `--extension-max-bytes` (10 MB by default), before and while reading.
        case configured
        /// A Content-Length over this many bytes cancels the download.
        case contentLengthOver(Int)
        /// Not checked (richpush still stops at ``SDKProfile/safetyCapBytes``).
        case unchecked
    }

    /// How the extension names the attachment file; iOS types the file by its extension or by a type hint.
    public enum NamingRule: Sendable, Equatable {
        /// From the sniffed format (`.jpg`, `.png`, `.gif`): the requirement's extension.
        case sniffedFormat
        /// `prefix` + `URLResponse.suggestedFilename`'s extension (Firebase), or + the whole suggested name.
        case suggestedFilename(SuggestedName)
        /// OneSignal: `filename=` query item, MIME map, URL extension, any query item; none supported: no attachment.
        case oneSignal
        /// Airship: `-<last path component>`; no supported extension: a type hint from the MIME type or magic bytes.
        case airship
        /// `.` + the payload's type, mapped through `map` when it names one there (CleverTap's `image` → `jpg`).
        case payloadType(map: [String: String])
        /// The payload's type passed to iOS as the type hint; the file keeps the download's name without extension.
        case payloadTypeHint
    }

    /// How a suggested file name becomes the attachment's name.
    public enum SuggestedName: Sendable, Equatable {
        /// Temp path + `.` + the suggested name's extension (an empty one leaves a trailing dot).
        case extensionOnly
        /// A UUID followed by `separator` and the whole suggested name.
        case whole(separator: String)
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

    // MARK: - Image URLs

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

    /// The image URLs this extension reads from `payload`, in the order it fetches them (only the first when it
    /// fetches one).
    public func imageRequests(in payload: JSONObject, policy: ImageURLPolicy) -> [ImageRequest] {
        let all: [ImageRequest]
        switch imageSource {
        case .configured:
            all = policy.resolve(in: payload).map { [ImageRequest(keyPath: $0.keyPath, url: $0.url)] } ?? []
        case .keyPath(let path):
            all = path.value(in: payload)?.stringValue.map { [ImageRequest(keyPath: path, url: $0)] } ?? []
        case .typed(let urlPath, let typePath):
            guard let url = urlPath.value(in: payload)?.stringValue,
                let type = typePath.value(in: payload)?.stringValue
            else { return [] }
            all = [ImageRequest(keyPath: urlPath, url: url, type: type)]
        case .oneSignalAttachments:
            let container: PayloadKeyPath =
                if case .object? = payload["os_data"] { "os_data.att" } else { "att" }
            guard case .object(let attachments)? = container.value(in: payload) else { return [] }
            all = attachments.pairs.compactMap { key, value in
                value.stringValue.map {
                    ImageRequest(keyPath: PayloadKeyPath(stringLiteral: "\(container).\(key)"), url: $0)
                }
            }
        case .airshipMedia:
            all = Self.airshipRequests(in: payload)
        }
        return plurality == .first ? Array(all.prefix(1)) : all
    }

    private static func airshipRequests(in payload: JSONObject) -> [ImageRequest] {
        let root: PayloadKeyPath = "com.urbanairship.media_attachment"
        guard case .object(let media)? = root.value(in: payload) else { return [] }
        if let urls = media["urls"] {
            guard case .array(let entries) = urls else { return [] }
            return entries.enumerated().compactMap { index, entry in
                guard case .object(let object) = entry, let url = object["url"]?.stringValue else { return nil }
                return ImageRequest(keyPath: PayloadKeyPath(stringLiteral: "\(root).urls.\(index).url"), url: url)
            }
        }
        switch media["url"] {
        case .string(let url)?:
            return [ImageRequest(keyPath: PayloadKeyPath(stringLiteral: "\(root).url"), url: url)]
        case .array(let entries)?:
            return entries.enumerated().compactMap { index, entry in
                entry.stringValue.map {
                    ImageRequest(keyPath: PayloadKeyPath(stringLiteral: "\(root).url.\(index)"), url: $0)
                }
            }
        default:
            return []
        }
    }

    /// When this extension found no image URL but the payload holds one where it does not look (or lacks the type
    /// it needs), one sentence saying so. Nil for the requirement's extension, whose hints name `--image-key`.
    public func missedImageHint(in payload: JSONObject) -> String? {
        switch imageSource {
        case .configured:
            return nil
        case .typed(let urlPath, let typePath):
            if urlPath.value(in: payload)?.stringValue != nil, typePath.value(in: payload)?.stringValue == nil {
                return "\(title) needs \(typePath) beside \(urlPath); without it the SDK shows the text only."
            }
        default:
            break
        }
        let own = ImageURLPolicy(keyPaths: ownKeyPaths)
        guard let missed = own.missedImageKey(in: payload) else { return nil }
        let reads = ownKeyPaths.map(\.description).joined(separator: ", ")
        return "\(title) reads the image from \(reads) only, but \(missed.keyPath) holds an https URL."
    }

    /// The key paths this extension reads, for hints.
    var ownKeyPaths: [PayloadKeyPath] {
        switch imageSource {
        case .configured: ImageURLPolicy.blueprint.keyPaths
        case .keyPath(let path): [path]
        case .typed(let url, _): [url]
        case .oneSignalAttachments: ["att", "os_data.att"]
        case .airshipMedia: ["com.urbanairship.media_attachment.url", "com.urbanairship.media_attachment.urls"]
        }
    }
}
