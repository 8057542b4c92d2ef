/// Customer.io's rich push handling (`MessagingPush` `RichPushRequest`).
///
/// Read in customerio/customerio-ios: Sources/MessagingPush/RichPush/RichPushHttpClient.swift at
/// 00800f338f73f4c99d3b84fad86d5a98d27bf2fb; `cioImage` (`CIO.push.image`) and `HttpRequestRunner.downloadFile`
/// found by content (path and commit not recorded).
public struct CustomerIO: VendorRules {
    public init() {}
    public let name = "customerio"
    public let title = "Customer.io (RichPushRequest)"
    public let source = "customerio/customerio-ios Sources/MessagingPush/RichPush/RichPushHttpClient.swift @ 00800f33"

    /// `cioPushPayload?["image"]` where `cioPushPayload` is `data["CIO"]["push"]`.
    public let imageKeyPaths: [PayloadKeyPath] = ["CIO.push.image"]
    public func imageRequests<Node: PayloadNode>(in payload: Node) -> [ImageRequest] {
        imageKeyPaths[0].imageRequests(in: payload)
    }

    /// `session.downloadTask(with:)` on an ephemeral session: ATS applies.
    public let schemes = SchemeRule.urlSession
    /// `getBasicSession`: `timeoutIntervalForResource = 30` (the whole download), request 60.
    public let timeout = TimeoutRule.fixed(.seconds(30))
    /// Only a temp location and a suggested file name are required.
    public let contentType = ContentTypeRule.ignored
    public let size = SizeRule.unchecked

    /// `UUID().uuidString + "_" + suggestedFileName`.
    public func attachmentName(for file: DownloadedFile) -> Result<AttachmentName, Refusal> {
        .success(AttachmentName(fileName: "\(file.stem)_\(file.suggestedFilename)"))
    }

    /// "At this time, an image is the only attachment our SDK adds to a push."
    public let plurality = Plurality.first
}
