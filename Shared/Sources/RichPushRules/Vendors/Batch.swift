/// Batch's `BAENotificationServiceExtension` with `RichNotificationHelper` (BatchExtension 3.0 – 4.0.0; the image code
/// is the same in both, 2.0.x only lacked the Low Data Mode setting).
///
/// Read in BatchLabs/Batch-iOS-SDK-Extension at tag 4.0.0 (ded33972): Sources/Swift/Rich Notifications/
/// RichNotificationHelper.swift at 9c3730cfbc7b90abd1f112e9ca3c855fac0d6a72; Sources/Swift/Consts.swift and
/// Sources/Swift/SwiftPM/BAENotificationServiceExtension.swift at 1f3f19654c3f85d28b012eb7d8025d2fd8fc5f19. (The
/// profile first cited 4085287e, an October 2019 commit whose download code differs only by an availability check.)
public struct Batch: VendorRules {
    public init() {}
    public let name = "batch"
    public let title = "Batch (RichNotificationHelper)"
    public let source =
        "BatchLabs/Batch-iOS-SDK-Extension Sources/Swift/Rich Notifications/RichNotificationHelper.swift @ 9c3730cf (4.0.0)"

    /// `import BatchExtension`: the pod `BatchExtension` (ObjC and Swift, BatchExtension.podspec at 95ed538e) or the
    /// package `Batch-iOS-SDK-Extension` (Swift only, Package.swift at 95ed538e). The app's `Batch` module is not used
    /// in an extension.
    public var sdk: VendorSDK? {
        VendorSDK(
            modules: ["BatchExtension"], baseClasses: ["BAENotificationServiceExtension"], pods: ["BatchExtension"],
            packages: ["batch-ios-sdk-extension"])
    }

    /// `payload["com.batch"]["at"]["u"]` and `["t"]`, both Strings; either missing: `noRichDataFound`.
    let key = TypedImageKey(url: "com.batch.at.u", type: "com.batch.at.t")
    public var imageKeyPaths: [PayloadKeyPath] { [key.url] }
    public func imageRequests<Node: PayloadNode>(in payload: Node) -> [ImageRequest] { key.requests(in: payload) }
    public func missingCompanionHint<Node: PayloadNode>(in payload: Node) -> String? {
        key.missingTypeHint(in: payload, title: title)
    }

    /// `session.downloadTask(with:)`: ATS applies. (`allowsConstrainedNetworkAccess = allowInLowDataMode`, false by
    /// default, refuses the download in Low Data Mode, which richpush does not emulate.)
    public let schemes = SchemeRule.urlSession
    /// `timeoutIntervalForResource = TimeInterval(Consts.timeoutIntervalSecs)`, 20 s for the whole download.
    public let timeout = TimeoutRule.fixed(.seconds(20))
    /// Only the error and the location are checked.
    public let contentType = ContentTypeRule.ignored
    public let size = SizeRule.unchecked

    /// `UNNotificationAttachment(identifier: "batch_rich_attachment", url: downloadedAttachment.fileUrl, options:
    /// [TypeHintKey: attachment.type])`: the download's own file, typed by the payload's `t`.
    public func attachmentName(for file: DownloadedFile) -> Result<AttachmentName, Refusal> {
        .success(AttachmentName(fileName: file.stem, typeHint: file.payloadType))
    }

    /// `mutableContent.attachments.append(...)`: one, after any the content had.
    public let plurality = Plurality.first

    // No `wouldSend`. 4.0.0 sends nothing besides the image ("Removed use of App Group and UserDefaults", CHANGELOG.md
    // at 95ed538e). 3.0.x sent display receipts (`POST https://drws.batch.com/i/1.0.0`, MessagePack) only when the
    // App Group's UserDefaults held `batch_shared_optout = false`, a missing key counting as opted out
    // (DisplayReceiptHelper.swift and AppInformationProvider.swift at tag 3.0.3): the App Group of an extension under
    // richpush is new and empty, so a 3.0.x extension would send none either.
}
