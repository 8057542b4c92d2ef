/// Braze's service extension as its documentation had apps copy it (the Appboy sample). The source of the current
/// Braze Swift SDK's `BrazeNotificationService` was not found; how it differs is not confirmed.
///
/// Read in Appboy/appboy-ios-sdk, HelloSwift/HelloSwiftNotificationExtension/NotificationService.swift at
/// 200eb476a5ab648a7e8835a9c1166f23d0e2ea9e.
public struct Braze: VendorRules {
    public init() {}
    public let name = "braze"
    public let title = "Braze (Appboy NotificationService sample)"
    public let source =
        "Appboy/appboy-ios-sdk HelloSwift/HelloSwiftNotificationExtension/NotificationService.swift @ 200eb476"

    /// What an extension names of Braze: the module `BrazeNotificationService` (Braze Swift SDK 5.x-18.2.0; pod of that
    /// name, BrazeNotificationService.podspec @ f866739a; product of package braze-swift-sdk, Package.swift @
    /// f866739a), whose class `NotificationService` an extension subclasses as
    /// `BrazeNotificationService.NotificationService` (Examples/Swift/Sources/PushNotificationsServiceExtension/
    /// NotificationService.swift @ 69b935ad). The Appboy-era extension imports nothing of Appboy's.
    public var sdk: VendorSDK? {
        VendorSDK(
            modules: ["BrazeNotificationService"], baseClasses: ["BrazeNotificationService.NotificationService"],
            pods: ["BrazeNotificationService"], packages: ["braze-swift-sdk"])
    }

    /// `userInfo["ab"]["att"]["url"]`, and "Push attachment has no type." ends it without `["type"]`.
    let key = TypedImageKey(url: "ab.att.url", type: "ab.att.type")
    public var imageKeyPaths: [PayloadKeyPath] { [key.url] }
    public func imageRequests<Node: PayloadNode>(in payload: Node) -> [ImageRequest] { key.requests(in: payload) }
    public func missingCompanionHint<Node: PayloadNode>(in payload: Node) -> String? {
        key.missingTypeHint(in: payload, title: title)
    }

    /// `URLSession(configuration: .default).downloadTask(with:)`: ATS applies.
    public let schemes = SchemeRule.urlSession
    /// `.default` configuration, no timeout set: 60 s.
    public let timeout = TimeoutRule.fixed(.seconds(60))
    /// Only `error != nil` is checked.
    public let contentType = ContentTypeRule.ignored
    public let size = SizeRule.unchecked

    /// `"\(temporaryFileLocation!.path).\(attachmentType)"`: the payload's type, verbatim.
    public func attachmentName(for file: DownloadedFile) -> Result<AttachmentName, Refusal> {
        .success(AttachmentName(fileName: "\(file.stem).\(FileNaming.sanitized(file.payloadType ?? ""))"))
    }

    /// `attachments = [attachment!]`: one.
    public let plurality = Plurality.first
}
