/// Iterable's `ITBNotificationServiceExtension` (IterableAppExtensions 6.3.1 and later; the image code unchanged since
/// 036dd8a3, the delegate for other vendors' pushes since 6.4.13).
///
/// Read in Iterable/iterable-swift-sdk, notification-extension/ITBNotificationServiceExtension.swift at
/// 33d88c956f6f7c1d6f08bc7ccaa83ffd82bd087b (6.4.13, unchanged through 6.7.3); `JsonKey.Payload` (metadata "itbl",
/// attachmentUrl "attachment-url", messageId "messageId") in notification-extension/NotificationExtensionConstants.swift
/// at 11070cba321aad4643acfbb0dc7f708817cfe457.
public struct Iterable: VendorRules {
    public init() {}
    public let name = "iterable"
    public let title = "Iterable (ITBNotificationServiceExtension)"
    public let source =
        "Iterable/iterable-swift-sdk notification-extension/ITBNotificationServiceExtension.swift @ 33d88c95"

    /// `import IterableAppExtensions`: pod `Iterable-iOS-AppExtensions` (`module_name = "IterableAppExtensions"`,
    /// Iterable-iOS-AppExtensions.podspec at b8d25f24), product `IterableAppExtensions` of the package
    /// `iterable-swift-sdk` (Package.swift at 76e81b19).
    public var sdk: VendorSDK? {
        VendorSDK(
            modules: ["IterableAppExtensions"], baseClasses: ["ITBNotificationServiceExtension"],
            pods: ["Iterable-iOS-AppExtensions"], packages: ["iterable-swift-sdk"])
    }

    /// `content.userInfo["itbl"]["attachment-url"]` (a String `URL(string:)` parses). With
    /// `itblNotificationDelegate` set, a payload without a top-level `itbl` goes to the delegate instead; without
    /// one, Iterable handles every push (no image, then the content once its category step ends).
    public let imageKeyPaths: [PayloadKeyPath] = ["itbl.attachment-url"]
    public func imageRequests<Node: PayloadNode>(in payload: Node) -> [ImageRequest] {
        imageKeyPaths[0].imageRequests(in: payload)
    }

    /// `URLSession.shared.downloadTask(with:)`: ATS applies.
    public let schemes = SchemeRule.urlSession
    /// `URLSession.shared`: 60 s.
    public let timeout = TimeoutRule.fixed(.seconds(60))
    /// Only `error == nil`, a response with a `url` and a location are checked.
    public let contentType = ContentTypeRule.ignored
    public let size = SizeRule.unchecked

    /// `UUID().uuidString + (response.suggestedFilename ?? responseUrl.lastPathComponent)`, no separator, in the
    /// temporary directory; `UNNotificationAttachment(identifier:` that name `, url:, options: nil)`.
    public func attachmentName(for file: DownloadedFile) -> Result<AttachmentName, Refusal> {
        .success(AttachmentName(fileName: "\(file.stem)\(file.suggestedFilename)"))
    }

    /// `content.attachments.append(attachment)` for the one URL (after any attachment the content had).
    public let plurality = Plurality.first

    // No `wouldSend`: nothing in notification-extension/ touches the network besides the image, nor an App Group or
    // UserDefaults. Its one lasting side effect is not a request: with `itbl.messageId` and no category on the push,
    // it registers a category of that name (`UNUserNotificationCenter.setNotificationCategories`, the buttons of
    // `itbl.actionButtons`) and sets it on the content.
}
