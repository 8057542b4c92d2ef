/// The requirement's extension, which richpush has always emulated and still does by default: the image URL from
/// the configured key paths, https only, one deadline for the whole download (`--download-timeout`), `image/*` only,
/// at most `--extension-max-bytes`, the file named from the sniffed format.
public struct Requirement: VendorRules {
    public init() {}
    public let name = "requirement"
    public let title = "the requirement's extension"
    public let source = "richpush's own extension (the requirement)"

    /// The default key paths; `--image-key` adds to them (``usesConfiguredImageKeys``).
    public let imageKeyPaths: [PayloadKeyPath] = ["fcm_options.image", "notification.image"]
    public var usesConfiguredImageKeys: Bool { true }

    public func imageRequests<Node: PayloadNode>(in payload: Node) -> [ImageRequest] {
        for path in imageKeyPaths {
            if let url = path.value(in: payload)?.string { return [ImageRequest(keyPath: path, url: url)] }
        }
        return []
    }

    public let schemes = SchemeRule.httpsOnly
    public let timeout = TimeoutRule.configured
    public let contentType = ContentTypeRule.imageOnly
    /// A non-2xx status is a failure (`httpStatus`).
    public var checksStatus: Bool { true }
    public let size = SizeRule.configured

    /// The downloader names the file from the format its bytes are: nothing to change.
    public func attachmentName(for file: DownloadedFile) -> Result<AttachmentName, Refusal> {
        .success(AttachmentName(fileName: file.name))
    }

    public let plurality = Plurality.first
}
