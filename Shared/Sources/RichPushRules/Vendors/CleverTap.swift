/// CleverTap's `CTNotificationServiceExtension`.
///
/// Read in CleverTap/CTNotificationService, CTNotificationService/CTNotificationServiceExtension.m at
/// 12126a504a870d55333b76d58cff84816e62ac8b.
public struct CleverTap: VendorRules {
    public init() {}
    public let name = "clevertap"
    public let title = "CleverTap (CTNotificationServiceExtension)"
    public let source =
        "CleverTap/CTNotificationService CTNotificationService/CTNotificationServiceExtension.m @ 12126a50"

    /// `kMediaUrlKey = @"ct_mediaUrl"`, `kMediaTypeKey = @"ct_mediaType"`; either missing: `contentComplete`.
    let key = TypedImageKey(url: "ct_mediaUrl", type: "ct_mediaType")
    public var imageKeyPaths: [PayloadKeyPath] { [key.url] }
    public func imageRequests<Node: PayloadNode>(in payload: Node) -> [ImageRequest] { key.requests(in: payload) }
    public func missingCompanionHint<Node: PayloadNode>(in payload: Node) -> String? {
        key.missingTypeHint(in: payload, title: title)
    }

    /// `downloadTaskWithURL:` on `defaultSessionConfiguration`: ATS applies.
    public let schemes = SchemeRule.urlSession
    /// No timeout set: 60 s.
    public let timeout = TimeoutRule.fixed(.seconds(60))
    /// Only `error != nil` is checked.
    public let contentType = ContentTypeRule.ignored
    public let size = SizeRule.unchecked

    /// `fileExtensionForMediaType:`: image → jpg, video → mp4, audio → mp3, anything else used as given.
    static let fileExtensions = ["image": "jpg", "video": "mp4", "audio": "mp3"]
    public func attachmentName(for file: DownloadedFile) -> Result<AttachmentName, Refusal> {
        let given = file.payloadType ?? ""
        return .success(
            AttachmentName(fileName: "\(file.stem).\(FileNaming.sanitized(Self.fileExtensions[given] ?? given))"))
    }

    /// `[NSArray arrayWithObject:attachment]`: one.
    public let plurality = Plurality.first
}
