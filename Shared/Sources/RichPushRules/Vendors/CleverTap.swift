import Foundation

/// CleverTap's `CTNotificationServiceExtension` (CTNotificationService 0.1.5 – 0.1.7), and the "Notification Viewed"
/// event CleverTap's SDK queues when an extension calls `CleverTap.sharedInstance()?.recordNotificationViewedEvent(withData:)`
/// (CleverTap's own starter extensions do).
///
/// Read in CleverTap/CTNotificationService, CTNotificationService/CTNotificationServiceExtension.m at
/// f302ca47f2f9808c05672152b790b4e50f4f6b61 (0.1.5, unchanged through 0.1.7, the current release); before it
/// (12126a504a870d55333b76d58cff84816e62ac8b, 0.1.0 – 0.1.4) a type other than image, video or audio was used as the
/// file extension itself. The event: CleverTap/clevertap-ios-sdk CleverTapSDK/CleverTap.m and CTEventBuilder.m at
/// 971d449dad985a6d9b8b70ee845a19fde2b27abe (7.7.0), CTDomainFactory.m at ac24bbf6c906f2452ae1dad14d34e4e6da12e261,
/// CTConstants.h at 66a748fe88fb17172c0bfe891c47b14cc04f16fc, CTConstants.m at 8960f9e479dd3e10d14c8859dd5e1ac70dc73af1.
public struct CleverTap: VendorRules {
    /// The keys a subclass names with `mediaUrlKey` / `mediaTypeKey` before `super.didReceive` (top-level keys of
    /// `userInfo`; nil keeps CleverTap's), and the account the extension configured (`setCredentialsWithAccountID`,
    /// the Info.plist's `CleverTapAccountID` / `CleverTapRegion`), which only the event's address uses.
    public init(
        mediaUrlKey: String? = nil, mediaTypeKey: String? = nil, accountID: String? = nil, region: String? = nil
    ) {
        key = TypedImageKey(
            url: PayloadKeyPath(stringLiteral: mediaUrlKey ?? "ct_mediaUrl"),
            type: PayloadKeyPath(stringLiteral: mediaTypeKey ?? "ct_mediaType"))
        self.accountID = accountID
        self.region = region
    }

    public let name = "clevertap"
    public let title = "CleverTap (CTNotificationServiceExtension)"
    public let source =
        "CleverTap/CTNotificationService CTNotificationService/CTNotificationServiceExtension.m @ f302ca47 (0.1.5-0.1.7)"

    /// `import CTNotificationService` (pod and package `CTNotificationService`, CTNotificationService.podspec at
    /// 9b6115c4, Package.swift at 6203e7b1) for the base class; `import CleverTapSDK` (pod `CleverTap-iOS-SDK` with
    /// `module_name = 'CleverTapSDK'`, package `clevertap-ios-sdk`; CleverTap-iOS-SDK.podspec at 1e3b23c7,
    /// Package.swift at 6e3431b0) for the event.
    public var sdk: VendorSDK? {
        VendorSDK(
            modules: ["CTNotificationService", "CleverTapSDK"], baseClasses: ["CTNotificationServiceExtension"],
            pods: ["CTNotificationService", "CleverTap-iOS-SDK"],
            packages: ["ctnotificationservice", "clevertap-ios-sdk"])
    }

    /// `userInfo[mediaUrlKey ?: kMediaUrlKey]` and `userInfo[mediaTypeKey ?: kMediaTypeKey]` (`ct_mediaUrl`,
    /// `ct_mediaType`), both top-level; either nil: `contentHandler(bestAttemptContent)` at once.
    let key: TypedImageKey
    let accountID: String?
    let region: String?

    public var imageKeyPaths: [PayloadKeyPath] { [key.url] }
    public func imageRequests<Node: PayloadNode>(in payload: Node) -> [ImageRequest] { key.requests(in: payload) }
    public func missingCompanionHint<Node: PayloadNode>(in payload: Node) -> String? {
        key.missingTypeHint(in: payload, title: title)
    }

    /// `downloadTaskWithURL:` on `defaultSessionConfiguration`: ATS applies.
    public let schemes = SchemeRule.urlSession
    /// No timeout set: 60 s.
    public let timeout = TimeoutRule.fixed(.seconds(60))
    /// Only `error != nil` is checked.
    public let contentType = ContentTypeRule.ignored
    public let size = SizeRule.unchecked

    /// `fileExtensionForMediaType:mimeType:` (since 0.1.5): `image` → jpg, `video` → mp4, `audio` → mp3; any other type
    /// falls back to the response's MIME type (`image/jpeg` → jpeg, `image/png` → png, `image/gif` → gif), else an
    /// empty extension; the file is the download's path + "." + that, a bare trailing dot when it is empty.
    static let typeExtensions = ["image": "jpg", "video": "mp4", "audio": "mp3"]
    static let mimeExtensions = ["image/jpeg": "jpeg", "image/png": "png", "image/gif": "gif"]
    public func attachmentName(for file: DownloadedFile) -> Result<AttachmentName, Refusal> {
        let fileExtension =
            Self.typeExtensions[file.payloadType ?? ""] ?? file.mediaType.flatMap { Self.mimeExtensions[$0] } ?? ""
        return .success(AttachmentName(fileName: "\(file.stem).\(fileExtension)"))
    }

    /// `[NSArray arrayWithObject:attachment]`: one, replacing any the content had.
    public let plurality = Plurality.first

    /// `recordNotificationViewedEventWithData:` (CleverTap.m lines 3364-3387): the payload's keys that start with `W$`
    /// (renamed `wzrk_`) or `wzrk_`, plus `wzrk_cts`, as event "Notification Viewed", queued in the notifications queue
    /// and flushed 1 s later (`CLTAP_PUSH_DELAY_SECONDS`) to `https://<domain>/a1?os=iOS&t=<sdk>&z=<account>&ts=<now>`
    /// (`endpointForQueue:`). The domain is `<region>-spiky.clevertap-prod.com` with a region
    /// (`loadRedirectNotifViewedDomain`), else the one a handshake with `https://clevertap-prod.com/hello` stored, which
    /// a new extension container has not: the handshake comes first. `CTNotificationServiceExtension` itself sends
    /// nothing, so this is only what an extension that makes the call would send.
    public func wouldSend<Node: PayloadNode>(for payload: Node) -> [WouldSend] {
        let account = accountID ?? "<CleverTapAccountID>"
        var fields: [(String, String)] = [("evtName", "Notification Viewed")]
        for (key, value) in payload.members ?? [] {
            if key.hasPrefix("W$") || key.hasPrefix("wzrk_") {
                let renamed = key.hasPrefix("W$") ? "wzrk_" + key.dropFirst(2) : key
                fields.append((renamed, value.string ?? "…"))
            }
        }
        fields.append(("wzrk_cts", "<now>"))
        let note =
            "when the extension calls CleverTap.sharedInstance()?.recordNotificationViewedEvent(withData:); queued, flushed 1 s later"
        let trimmed = region?.trimmingCharacters(in: .whitespacesAndNewlines).lowercased() ?? ""
        if !trimmed.isEmpty {
            return [
                WouldSend(
                    method: "POST", url: "https://\(trimmed)-spiky.clevertap-prod.com/a1?os=iOS&z=\(account)",
                    fields: fields, note: note)
            ]
        }
        return [
            WouldSend(
                method: "GET", url: "https://clevertap-prod.com/hello",
                note: "the handshake for the account's domain, with no CleverTapRegion and none stored yet"),
            WouldSend(
                method: "POST", url: "https://<notification-viewed domain from the handshake>/a1?os=iOS&z=\(account)",
                fields: fields, note: note),
        ]
    }
}
