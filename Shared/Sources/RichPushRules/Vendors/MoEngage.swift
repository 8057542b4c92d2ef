import Foundation

/// MoEngage's `MoEngageSDKRichNotification.handle(richNotificationRequest:withContentHandler:)` (MoEngageRichNotification
/// 7.x – 8.x; `MORichNotification` with the same members in 6.2 – 6.4).
///
/// MoEngage ships binaries only, so these rules come from its public interfaces, binary string tables, changelogs and
/// samples, and are marked "unconfirmed" where nothing shows them; where they guess, they guess what a plain
/// URLSession download does. Read in moengage/MoEngage-iOS-RichNotification at fc0c4666 (7.15.0): the
/// MoEngageRichNotification.swiftinterface at 9f43f44e and the binary's strings at 1dfe57ad; moengage/MoEngage-iOS-SDK
/// ChangeLogs/MoEngageRichNotification.md at 0428ff9a (through 8.01.10) and the MoEngageMessaging swiftinterface at
/// 096d2481 (`MoEngagePushPayload`, `MoEngageKeys.mediaAttachment`); moengage/MORichNotification at 4466d144 (3.0.1,
/// binary strings at 60750fc0) for the impression request; moengage/iOS-SampleApp
/// NotificationServices/NotificationService.swift at 274be9feabd260b16243a297a237ece3248ce754.
public struct MoEngage: VendorRules {
    public init() {}
    public let name = "moengage"
    public let title = "MoEngage (MoEngageSDKRichNotification)"
    public let source =
        "moengage/MoEngage-iOS-RichNotification MoEngageRichNotification.swiftinterface @ 9f43f44e (7.15.0), binary only"

    /// `import MoEngageRichNotification` (6.2 and later): pod `MoEngageRichNotification`, or the package
    /// `MoEngage-iOS-RichNotification` (6.x – 7.x) / `MoEngage-iOS-SDK` (8.x). The ObjC generations before 6.2 were the
    /// pod `MORichNotification` with a module of that name, which richpush does not provide.
    public var sdk: VendorSDK? {
        VendorSDK(
            modules: ["MoEngageRichNotification"], pods: ["MoEngageRichNotification", "MORichNotification"],
            packages: ["moengage-ios-richnotification", "moengage-ios-sdk"])
    }

    /// The `moengage` dictionary (top level) marks MoEngage's pushes; its `media-attachment` is the image
    /// (`MoEngageKeys.mediaAttachment`; the 3.x binary's strings). Unconfirmed: whether `app_id`, `cid` or
    /// `media-type` must be there too (`MoEngagePushPayload.init(withPushPayload:) throws`); they are not required here.
    public let imageKeyPaths: [PayloadKeyPath] = ["moengage.media-attachment"]
    public func imageRequests<Node: PayloadNode>(in payload: Node) -> [ImageRequest] {
        imageKeyPaths[0].imageRequests(in: payload)
    }

    /// A URLSession download task (MoEngageCore's `downloadTask(with:completionHandler:)`): ATS applies. (5.0.2
    /// percent-encodes a link that is not encoded yet; not emulated, so such a link is refused as invalid here.)
    public let schemes = SchemeRule.urlSession
    /// Unconfirmed: no timeout is known, so URLSession's default, 60 s.
    public let timeout = TimeoutRule.fixed(.seconds(60))
    /// The Content-Type names the file (8.01.10 and later) but refuses nothing.
    public let contentType = ContentTypeRule.ignored
    /// Unconfirmed: no size check is known.
    public let size = SizeRule.unchecked

    /// 8.01.10: "resolving the server's Content-Type, falling back to the URL extension when unavailable": the MIME
    /// type's extension, else the URL's path extension, else none (iOS then refuses the file). Before 8.01.10 only the
    /// URL's extension counted (3.x: `<…>/Attachments/<name>.<pathExtension>`). Unconfirmed: the exact MIME map and
    /// file name (here the system's preferred extension after a name of richpush's).
    public func attachmentName(for file: DownloadedFile) -> Result<AttachmentName, Refusal> {
        let fromMIME = file.mediaType.flatMap { TypeDeclaration.preferredExtension(forMIMEType: $0) }
        let fromURL = FileNaming.sanitized(FileNaming.fileExtension(of: file.url.lastPathComponent))
        guard let fileExtension = fromMIME ?? (fromURL.isEmpty ? nil : fromURL) else {
            return .success(AttachmentName(fileName: file.stem))
        }
        return .success(AttachmentName(fileName: "\(file.stem).\(fileExtension)"))
    }

    /// One media attachment. (Carousel templates fetch more images for the content extension: not emulated.)
    public let plurality = Plurality.first

    /// Every MoEngage push is tracked as received. MORichNotification 3.x sent `POST
    /// https://apiv2.moengage.com/v2/report/add/<app_id>` with `EVENT_ACTION: NOTIFICATION_RECEIVED_IOS_MOE` and the
    /// campaign; 7.x – 8.x log it through `MoEngageSDKMessaging.logNotificationReceived(withPayload:)` and MoEngageCore's
    /// batched reports, whose host and path are unconfirmed (a data-center host).
    public func wouldSend<Node: PayloadNode>(for payload: Node) -> [WouldSend] {
        guard let moengage = payload.member("moengage"), moengage.isObject else { return [] }
        let appID = moengage.member("app_id")?.string ?? "<app_id>"
        var fields: [(String, String)] = [("EVENT_ACTION", "NOTIFICATION_RECEIVED_IOS_MOE")]
        if let campaign = moengage.member("cid")?.string { fields.append(("cid", campaign)) }
        return [
            WouldSend(
                method: "POST", url: "https://apiv2.moengage.com/v2/report/add/\(appID)", fields: fields,
                note:
                    "the impression as MORichNotification 3.x sent it; 7.x and 8.x batch it to a data-center host (unconfirmed)"
            )
        ]
    }
}
