/// Iterable's `ITBNotificationServiceExtension`.
///
/// Read in Iterable/iterable-swift-sdk, notification-extension/ITBNotificationServiceExtension.swift at
/// 036dd8a3a2ee2c3eeec7745f330a6b6740c38dc1 (`JsonKey.Payload`: metadata "itbl", attachmentUrl "attachment-url").
public struct Iterable: VendorRules {
    public init() {}
    public let name = "iterable"
    public let title = "Iterable (ITBNotificationServiceExtension)"
    public let source =
        "Iterable/iterable-swift-sdk notification-extension/ITBNotificationServiceExtension.swift @ 036dd8a3"

    /// `content.userInfo["itbl"]["attachment-url"]`.
    public let imageKeyPaths: [PayloadKeyPath] = ["itbl.attachment-url"]
    public func imageRequests<Node: PayloadNode>(in payload: Node) -> [ImageRequest] {
        imageKeyPaths[0].imageRequests(in: payload)
    }

    /// `URLSession.shared.downloadTask(with:)`: ATS applies.
    public let schemes = SchemeRule.urlSession
    /// `URLSession.shared`: 60 s.
    public let timeout = TimeoutRule.fixed(.seconds(60))
    /// Only `error == nil` and a response are checked.
    public let contentType = ContentTypeRule.ignored
    public let size = SizeRule.unchecked

    /// `UUID().uuidString + (response.suggestedFilename ?? responseUrl.lastPathComponent)`.
    public func attachmentName(for file: DownloadedFile) -> Result<AttachmentName, Refusal> {
        .success(AttachmentName(fileName: "\(file.stem)\(file.suggestedFilename)"))
    }

    /// `content.attachments.append(attachment)` for the one URL.
    public let plurality = Plurality.first
}
