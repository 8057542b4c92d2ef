import Foundation

/// Optimove's `OptimoveNotificationService.didReceive` (OptimoveNotificationServiceExtension 5.0.0+, "Optimobile"):
/// Kumulos's extension code under Optimove's names. The gate, the picture's URL and the naming are ``Kumulos``'s
/// shared statics; what differs is here: the CDN, the extension read with `URL(string:)`, no trap on short values and
/// no delivery event.
///
/// Read in optimove-tech/Optimove-SDK-iOS at 8c234d61367f00e5580fa33b6779b21144789563 (6.10.0):
/// OptimoveNotificationServiceExtension/Sources/OptimoveNotificationService.swift at
/// 2bd2ff9708e10f3c4fd957baea1b0fe840dc7af1; OptimobileShared/MediaHelper.swift at e7163db6; the podspec at 7f8ce2b0
/// and Package.swift at e7163db6. Optimove 1.x – 3.x (the instance class `OptimoveNotificationServiceExtension` of the
/// same module, a JSON `media` string) is not emulated.
public struct Optimove: VendorRules {
    public init() {}
    public let name = "optimove"
    public let title = "Optimove (OptimoveNotificationService)"
    public let source =
        "optimove-tech/Optimove-SDK-iOS OptimoveNotificationServiceExtension/Sources/OptimoveNotificationService.swift @ 2bd2ff97 (6.10.0)"

    /// The pod of the same name (no `module_name`) and the product of the package Optimove-SDK-iOS.
    public let sdk: VendorSDK? = VendorSDK(
        modules: ["OptimoveNotificationServiceExtension"], pods: ["OptimoveNotificationServiceExtension"],
        packages: ["optimove-sdk-ios"])

    /// `MediaHelper.mediaResizerBaseUrl`, "Region.US as fallback region"; the App Group's `KumulosMediaBaseUrl`
    /// replaces it when the app stored one.
    static let mediaBase = "https://i-us-east-1.app.delivery"

    /// Kumulos's gate (`validateUserInfo`): without `custom.a.k.message.data.id` the content handler is never called.
    public func handlesMessage<Node: PayloadNode>(in payload: Node) -> Bool { Kumulos.isMessage(payload) }

    public var imageKeyPaths: [PayloadKeyPath] { [Kumulos.picture] }
    /// `hasPrefix("https://") || hasPrefix("http://")`: no trap on a short value, which becomes a media id.
    public func imageRequests<Node: PayloadNode>(in payload: Node) -> [ImageRequest] {
        Kumulos.pictureRequests(in: payload, mediaBase: Self.mediaBase)
    }

    public let schemes = SchemeRule.urlSession
    /// `URLSession(configuration: .default)`: 60 s.
    public let timeout = TimeoutRule.fixed(.seconds(60))
    public let contentType = ContentTypeRule.ignored
    public let size = SizeRule.unchecked

    /// `getPictureExtension` since 6.2.1 (b39ae813): `URL(string: pictureUrl)?.pathExtension`, so a query string is
    /// not part of it; none: the same of `response.suggestedFilename`; still none: no attachment.
    public func attachmentName(for file: DownloadedFile) -> Result<AttachmentName, Refusal> {
        Kumulos.attachmentName(
            for: file, title: title, pictureExtension: file.url.pathExtension,
            suggestedExtension: URL(string: file.suggestedFilename)?.pathExtension ?? "")
    }

    public let plurality = Plurality.first

    // No `wouldSend`: the extension's `k.message.delivered` event was removed in 5.6.0 (e7163db6); the app sends it
    // from the pending-notification record the extension leaves in the App Group.

    public func missingCompanionHint<Node: PayloadNode>(in payload: Node) -> String? {
        Kumulos.missingMessageHint(in: payload, title: title, call: "OptimoveNotificationService.didReceive")
    }

    /// Not an Optimove message: `didReceive` returns without calling the content handler, as Kumulos's does.
    public func withheldContentHandler<Node: PayloadNode>(for payload: Node) -> String? {
        Kumulos.withheld(for: payload, title: title, call: "OptimoveNotificationService.didReceive")
    }
}
