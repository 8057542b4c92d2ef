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

    static let root: PayloadKeyPath = "com.urbanairship.media_attachment"
    public var imageKeyPaths: [PayloadKeyPath] { [Self.root.appending("url"), Self.root.appending("urls")] }

    /// `com.urbanairship.media_attachment`: `urls` ([{url, url_id}]) when present, else `url` (a string or an array of
    /// strings) (MediaAttachmentPayload.init(from:)).
    public func imageRequests<Node: PayloadNode>(in payload: Node) -> [ImageRequest] {
        guard let media = Self.root.value(in: payload), media.isObject else { return [] }
        if let urls = media.member("urls") {
            guard let entries = urls.elements else { return [] }
            return entries.enumerated().compactMap { index, entry in
                entry.member("url")?.string.map {
                    ImageRequest(keyPath: Self.root.appending("urls").appending("\(index)").appending("url"), url: $0)
                }
            }
        }
        guard let url = media.member("url") else { return [] }
        if let single = url.string { return [ImageRequest(keyPath: Self.root.appending("url"), url: single)] }
        return (url.elements ?? []).enumerated().compactMap { index, entry in
            entry.string.map { ImageRequest(keyPath: Self.root.appending("url").appending("\(index)"), url: $0) }
        }
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
