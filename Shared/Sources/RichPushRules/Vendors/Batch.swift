/// Batch's `BAENotificationServiceExtension` with `RichNotificationHelper`.
///
/// Read in BatchLabs/Batch-iOS-SDK-Extension: Sources/Swift/Rich Notifications/RichNotificationHelper.swift at
/// 4085287e70fb535d96e0b846ced05b8d377b6621; Sources/Swift/Consts.swift at 9c3730cfbc7b90abd1f112e9ca3c855fac0d6a72.
public struct Batch: VendorRules {
    public init() {}
    public let name = "batch"
    public let title = "Batch (RichNotificationHelper)"
    public let source =
        "BatchLabs/Batch-iOS-SDK-Extension Sources/Swift/Rich Notifications/RichNotificationHelper.swift @ 4085287e"

    /// `payload["com.batch"]["at"]["u"]` and `["t"]`; either missing: `noRichDataFound`.
    let key = TypedImageKey(url: "com.batch.at.u", type: "com.batch.at.t")
    public var imageKeyPaths: [PayloadKeyPath] { [key.url] }
    public func imageRequests<Node: PayloadNode>(in payload: Node) -> [ImageRequest] { key.requests(in: payload) }
    public func missingCompanionHint<Node: PayloadNode>(in payload: Node) -> String? {
        key.missingTypeHint(in: payload, title: title)
    }

    /// `session.downloadTask(with:)`: ATS applies.
    public let schemes = SchemeRule.urlSession
    /// `timeoutIntervalForResource = TimeInterval(Consts.timeoutIntervalSecs)`, 20 s for the whole download.
    public let timeout = TimeoutRule.fixed(.seconds(20))
    /// Only the error and the location are checked.
    public let contentType = ContentTypeRule.ignored
    public let size = SizeRule.unchecked

    /// `UNNotificationAttachment(…, url: downloadedAttachment.fileUrl, options: [TypeHintKey: attachment.type])`: the
    /// download's own file, typed by the payload's `t`.
    public func attachmentName(for file: DownloadedFile) -> Result<AttachmentName, Refusal> {
        .success(AttachmentName(fileName: file.stem, typeHint: file.payloadType))
    }

    /// One attachment.
    public let plurality = Plurality.first
}
