import Foundation

/// Airship's `UANotificationServiceExtension` with `AirshipNotificationMutationProvider`.
///
/// Read in urbanairship/ios-library, AirshipExtensions/AirshipNotificationServiceExtension/Source/:
/// AirshipNotificationMutationProvider.swift and UANotificationServiceExtension.swift at
/// 01e28d2602ff22558f28681906f0c264455631c6; MediaAttachmentPayload.swift (the stored version; the index lists
/// 6858b2970feeb3d47960a584c91785246502e42c).
public struct Airship: VendorRules {
    public init() {}
    public let name = "airship"
    public let title = "Airship (UANotificationServiceExtension)"
    public let source =
        "urbanairship/ios-library AirshipExtensions/AirshipNotificationServiceExtension/Source/AirshipNotificationMutationProvider.swift @ 01e28d26"

    /// What an extension names of Airship: the Swift module under its CocoaPods name `AirshipServiceExtension`
    /// (AirshipServiceExtension.podspec @ 0058b6ac, 20.3.2) and its Swift package name
    /// `AirshipNotificationServiceExtension` (Package.swift @ 00013e79, package ios-library), `AirshipExtensions` (14.x,
    /// AirshipExtensions.podspec @ 00348236) and `AirshipAppExtensions` (8-12, pod UrbanAirship-iOS-AppExtensions:
    /// UrbanAirship-iOS-AppExtensions.podspec @ 05f9f118); each has `UANotificationServiceExtension`, which the
    /// extension subclasses, often with an empty body.
    public var sdk: VendorSDK? {
        VendorSDK(
            modules: [
                "AirshipServiceExtension", "AirshipNotificationServiceExtension", "AirshipExtensions",
                "AirshipAppExtensions",
            ],
            baseClasses: ["UANotificationServiceExtension"],
            pods: ["AirshipServiceExtension", "AirshipExtensions", "UrbanAirship-iOS-AppExtensions"],
            packages: ["ios-library"])
    }

    static let root: PayloadKeyPath = "com.urbanairship.media_attachment"
    public var imageKeyPaths: [PayloadKeyPath] { [Self.root.appending("url"), Self.root.appending("urls")] }

    /// `com.urbanairship.media_attachment` decoded as MediaAttachmentPayload.init(from:) (MediaAttachmentPayload.swift @
    /// 01e28d26; ``mediaPayloadDecodes(in:)``): `urls` when present, else `url`. A payload that does not decode
    /// fetches nothing (where dropping only the odd entry would fetch the others). An entry without `url`, or whose
    /// `url` `URL(string:)` cannot parse, is dropped (`compactMap(ContentMedia.init)`).
    public func imageRequests<Node: PayloadNode>(in payload: Node) -> [ImageRequest] {
        guard mediaPayloadDecodes(in: payload), let media = Self.root.value(in: payload) else { return [] }
        var found: [(PayloadKeyPath, String?)] = []
        if let urls = media.member("urls")?.elements {
            for (index, entry) in urls.enumerated() {
                let path = Self.root.appending("urls").appending("\(index)").appending("url")
                found.append((path, entry.member("url")?.string))
            }
        } else if let url = media.member("url") {
            if let single = url.string {
                found = [(Self.root.appending("url"), single)]
            } else {
                for (index, entry) in (url.elements ?? []).enumerated() {
                    found.append((Self.root.appending("url").appending("\(index)"), entry.string))
                }
            }
        }
        return found.compactMap { path, url in
            guard let url, URL(string: url) != nil else { return nil }
            return ImageRequest(keyPath: path, url: url)
        }
    }

    /// Whether `com.urbanairship.media_attachment` is an object that MediaAttachmentPayload.init(from:) decodes
    /// (MediaAttachmentPayload.swift @ 01e28d26): `urls` as `[[String: String]]` when present, else `url` as
    /// `[String]` or one `String` (neither key: it throws); `thumbnail_id` a string, `content` an object of strings
    /// (`title`, `subtitle`, `body`), `options` an object whose `crop` has `x`, `y`, `width` and `height`. Anything
    /// else throws, and the extension delivers the content unchanged: no image and no text from `content`. Numbers,
    /// booleans and null are not told apart here (a payload node has only strings, objects and arrays), so a number
    /// where a string belongs passes.
    public func mediaPayloadDecodes<Node: PayloadNode>(in payload: Node) -> Bool {
        guard let media = Self.root.value(in: payload), media.isObject else { return false }
        /// A number, a boolean or null: what a node is when it is no string, object or array.
        func isScalar(_ node: Node) -> Bool { node.string == nil && !node.isObject && node.elements == nil }
        if let urls = media.member("urls") {
            guard let entries = urls.elements,
                entries.allSatisfy({ $0.members?.allSatisfy { $0.value.string != nil } == true })
            else { return false }
        } else if let url = media.member("url") {
            guard url.string != nil || url.elements?.allSatisfy({ $0.string != nil }) == true else { return false }
        } else {
            return false
        }
        if let thumbnail = media.member("thumbnail_id"), thumbnail.isObject || thumbnail.elements != nil {
            return false
        }
        if let text = media.member("content") {
            guard let fields = text.members, fields.allSatisfy({ $0.value.string != nil || isScalar($0.value) })
            else { return isScalar(text) }
        }
        if let options = media.member("options") {
            guard let fields = options.members else { return isScalar(options) }
            if fields.contains(where: { $0.key != "crop" && !isScalar($0.value) }) { return false }
            if let crop = options.member("crop") {
                guard let edges = crop.members, edges.allSatisfy({ isScalar($0.value) }),
                    ["x", "y", "width", "height"].allSatisfy({ crop.member($0) != nil })
                else { return isScalar(crop) }
            }
        }
        return true
    }

    /// `URLSession(configuration: .default, delegate: ChallengeResolver.shared, …).download(from:)`: ATS applies.
    public let schemes = SchemeRule.urlSession
    /// `.default` configuration, no timeout set: 60 s.
    public let timeout = TimeoutRule.fixed(.seconds(60))
    /// No Content-Type or size check; the MIME type only feeds the type hint.
    public let contentType = ContentTypeRule.ignored
    public let size = SizeRule.unchecked

    /// `correctFileExtension`: `localURL.path + "-" + original.lastPathComponent`; without a supported suffix,
    /// `hintMimeType`: UTType from the MIME type, else `FileHeader.supportedHeaders` (magic bytes).
    public func attachmentName(for file: DownloadedFile) -> Result<AttachmentName, Refusal> {
        let name = "\(file.stem)-\(FileNaming.sanitized(FileNaming.lastComponent(of: file.url)))"
        if Self.supported.contains(where: { name.lowercased().hasSuffix($0) }) {
            return .success(AttachmentName(fileName: name))
        }
        let hint = Self.hint(mediaType: file.mediaType) ?? Self.magicHint(file.head())
        return .success(AttachmentName(fileName: name, typeHint: hint))
    }

    /// `withThrowingTaskGroup`: every URL at once; `for try await` rethrows the first failure and `mutations.apply`
    /// maps every attachment with `try`, so one failure leaves none.
    public let plurality = Plurality.allOrNothing

    /// `supportedExtensions` (AirshipNotificationMutationProvider.swift).
    static let supported = [
        "jpg", "jpeg", "png", "gif", "aif", "aiff", "mp3", "mpg", "mpeg", "mp4", "m4a", "wav", "avi",
    ]

    /// The type hint from the MIME type: the type's identifier when its preferred extension is supported.
    static func hint(mediaType: String?) -> String? {
        guard let mediaType, let preferred = TypeDeclaration.preferredExtension(forMIMEType: mediaType),
            supported.contains(preferred)
        else { return nil }
        return FileNaming.imageType(forExtension: preferred)
    }

    /// `FileHeader.supportedHeaders` for images: JPEG `FF D8 FF` then `E0`, `E2` or `E3`, PNG's signature, `GIF8`.
    static func magicHint(_ head: [UInt8]) -> String? {
        if head.count >= 4, head[0] == 0xFF, head[1] == 0xD8, head[2] == 0xFF, [0xE0, 0xE2, 0xE3].contains(head[3]) {
            return "public.jpeg"
        }
        if head.count >= 8, Array(head.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] {
            return "public.png"
        }
        if head.count >= 4, Array(head.prefix(4)) == [0x47, 0x49, 0x46, 0x38] { return "com.compuserve.gif" }
        return nil
    }
}
