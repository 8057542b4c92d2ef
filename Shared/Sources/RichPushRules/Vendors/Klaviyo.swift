/// Klaviyo's `KlaviyoExtensionSDK.handleNotificationServiceDidReceivedRequest` (KlaviyoSwiftExtension, 2.1.0-beta1+).
///
/// Read in klaviyo/klaviyo-swift-sdk at 67a8b4c48f060917866f9b8e94ac554f7c5a86b4 (5.3.1):
/// Sources/KlaviyoSwiftExtension/KlaviyoExtension.swift at cddf6939c57a82de1d61f03f1ecdff7e5a42fe80 (`handleRichMedia`,
/// `downloadMedia`, `createAttachment`); KlaviyoSwiftExtension.podspec and Package.swift at cddf6939; README.md at
/// 0ae48fe7. The default `fallbackMediaType` was `"jpeg"` before 5.2.0 (8bf326b8).
public struct Klaviyo: VendorRules {
    public init() {}
    public let name = "klaviyo"
    public let title = "Klaviyo (KlaviyoExtensionSDK)"
    public let source =
        "klaviyo/klaviyo-swift-sdk Sources/KlaviyoSwiftExtension/KlaviyoExtension.swift @ cddf6939 (5.3.1)"

    /// Pod and product `KlaviyoSwiftExtension` of the package klaviyo-swift-sdk (README: "assign …
    /// `KlaviyoSwiftExtension` to the notification service extension target").
    public let sdk: VendorSDK? = VendorSDK(
        modules: ["KlaviyoSwiftExtension"], pods: ["KlaviyoSwiftExtension"], packages: ["klaviyo-swift-sdk"])

    /// `fallbackMediaType`'s default: the file type when the payload gives none.
    public static let defaultFallbackMediaType = "jpg"

    /// `bestAttemptContent.userInfo["rich-media"] as? String`, with `userInfo["rich-media-type"] as? String` as the
    /// file type (else the caller's `fallbackMediaType`). No sender check: any payload with the key is handled.
    public let imageKeyPaths: [PayloadKeyPath] = ["rich-media"]
    public func imageRequests<Node: PayloadNode>(in payload: Node) -> [ImageRequest] {
        guard let url = imageKeyPaths[0].value(in: payload)?.string else { return [] }
        return [ImageRequest(keyPath: imageKeyPaths[0], url: url, type: payload.member("rich-media-type")?.string)]
    }

    /// `URL(string:)` nil: the handler gets the content unchanged; else `URLSession.shared` (ATS blocks http).
    public let schemes = SchemeRule.urlSession
    /// `URLSession.shared.downloadTask(with:)`: no timeout set, 60 s.
    public let timeout = TimeoutRule.fixed(.seconds(60))
    /// Only `error` and the file are checked.
    public let contentType = ContentTypeRule.ignored
    public let size = SizeRule.unchecked

    /// `"\(localFileURL.path).\(mediaTypeString)"`: the download's temporary file plus `.` and the payload's type (or
    /// the fallback, `jpg` by default), verbatim; `options: nil`, so iOS types it by that extension alone (`mp4` makes
    /// a video, `webp` is refused).
    public func attachmentName(for file: DownloadedFile) -> Result<AttachmentName, Refusal> {
        let type = file.payloadType ?? Self.defaultFallbackMediaType
        return .success(AttachmentName(fileName: "\(file.stem).\(FileNaming.sanitized(type))"))
    }

    /// `bestAttemptContent.attachments = [attachment]`: one.
    public let plurality = Plurality.first

    // No `wouldSend`: the extension sends nothing besides the media (received/open events come from the app SDK).
}
