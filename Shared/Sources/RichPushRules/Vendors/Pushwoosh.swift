/// Pushwoosh's `PushwooshNotificationServiceExtension` (7.1.0+) and `PWNotificationExtensionManager` (every version,
/// deprecated in 7.1.0), which both run `PWNotificationServiceProcessor`.
///
/// Read in Pushwoosh/pushwoosh-ios-sdk at f8c5cc8660ed6080816eeb9a0efd41d730a3255d (7.1.3), the Objective-C source
/// beside the prebuilt XCFrameworks: iOS_SDK/Pushwoosh/Pushwoosh/Public/PWNotificationServiceProcessor.m,
/// PushwooshNotificationServiceExtension.m/.h and PWNotificationExtensionManager.h at
/// 88bf6db5b536ad2061f432e52fc0cc8ad34f7d2e; iOS_SDK/Pushwoosh/PushwooshCore/Public/PWMessage.m at
/// 86e3772a1d8141b2ad82ac09b54b1bf4f969dd53. The image code before 7.1.0 (PWNotificationExtensionManager.m at 7.0.46,
/// 9fa75fca6b693c17eda4a982a1f84f13cee8dcc6) is the same but for the name not being sanitized.
public struct Pushwoosh: VendorRules {
    public init() {}
    public let name = "pushwoosh"
    public let title = "Pushwoosh (PushwooshNotificationServiceExtension)"
    public let source =
        "Pushwoosh/pushwoosh-ios-sdk iOS_SDK/Pushwoosh/Pushwoosh/Public/PWNotificationServiceProcessor.m @ 88bf6db5 (7.1.3)"

    /// `import PushwooshFramework` since 6.7.2 (fb7a8364, the framework's rename), `import Pushwoosh` before; pods
    /// `PushwooshXCFramework` (PushwooshXCFramework.podspec @ f8c5cc86) and `Pushwoosh` (iOS_SDK/Pushwoosh/Pushwoosh.podspec
    /// @ 6.5.10 343f2063, deleted in 6.7.15); the Swift package Pushwoosh/Pushwoosh-XCFramework (Package.swift @
    /// 20314ab6). Whether `pod 'Pushwoosh'` after 6.7.2 vends `PushwooshFramework` is not confirmed.
    /// `PushwooshNotificationUI` (stories, 7.2) is a product of the same package (Pushwoosh-XCFramework Package.swift @
    /// 20314ab6, 7.2.2); an extension imports it for ``storyImageURLs(in:parsingJSON:)``'s prefetch.
    public let sdk: VendorSDK? = VendorSDK(
        modules: ["PushwooshFramework", "Pushwoosh", "PushwooshNotificationUI"],
        baseClasses: ["PushwooshNotificationServiceExtension"],
        pods: ["PushwooshXCFramework", "Pushwoosh"], packages: ["pushwoosh-xcframework"])

    /// `userInfo["pw_msg"] != nil` (`+[PWMessage isPushwooshMessage:]`, PWMessage.m @ 86e3772a): only Pushwoosh's own
    /// messages are processed; any other is delivered unchanged, without a request.
    static let marker: PayloadKeyPath = "pw_msg"

    /// Whether the payload is a Pushwoosh message, which the SDK processes (image, delivery event, badge).
    public func isPushwooshMessage<Node: PayloadNode>(_ payload: Node) -> Bool {
        Self.marker.value(in: payload) != nil
    }

    /// Stories (`PushwooshStoriesMediaPrefetcher` in PushwooshNotificationUI, 7.2; StoryPayloadParser.swift in
    /// Pushwoosh/pushwoosh-ios-sdk): the `pw_stories` object at the top level, else in the custom data `u` or
    /// `userdata` (an object, or a JSON string the caller parses with `parsingJSON`); each of its `pages` with a string
    /// `image` is a page. The prefetch downloads those images into the App Group's `pw_stories_cache` folder for the
    /// Content Extension; the notification's content is not changed.
    public func storyImageURLs<Node: PayloadNode>(in payload: Node, parsingJSON: (String) -> Node?) -> [String] {
        var stories = payload.member(Self.storiesKey).flatMap { $0.isObject ? $0 : nil }
        if stories == nil {
            for key in Self.customDataKeys {
                guard let value = payload.member(key) else { continue }
                let container = value.isObject ? value : value.string.flatMap(parsingJSON)
                if let found = container?.member(Self.storiesKey), found.isObject {
                    stories = found
                    break
                }
            }
        }
        return stories?.member("pages")?.elements?.compactMap { $0.member("image")?.string } ?? []
    }
    static let storiesKey = "pw_stories"
    static let customDataKeys = ["u", "userdata"]

    /// `userInfo[@"attachment"]`, a string at the top level, read only for a Pushwoosh message (processor @ 88bf6db5).
    public let imageKeyPaths: [PayloadKeyPath] = ["attachment"]
    public func imageRequests<Node: PayloadNode>(in payload: Node) -> [ImageRequest] {
        guard isPushwooshMessage(payload) else { return [] }
        return imageKeyPaths[0].imageRequests(in: payload)
    }

    /// An `attachment` URL without `pw_msg` is not Pushwoosh's: the SDK leaves it alone.
    public func missingCompanionHint<Node: PayloadNode>(in payload: Node) -> String? {
        guard !isPushwooshMessage(payload), imageKeyPaths[0].value(in: payload)?.string != nil else { return nil }
        return
            "\(title) processes only Pushwoosh messages (with \(Self.marker)); without it the SDK delivers the content unchanged and never reads attachment."
    }

    /// `[NSURL URLWithString:]` then `downloadTaskWithURL:`: no scheme check of its own; ATS blocks http.
    public let schemes = SchemeRule.urlSession
    /// `[NSURLSession sharedSession]`: no timeout set, the 60 s default.
    public let timeout = TimeoutRule.fixed(.seconds(60))
    /// The completion looks only at `error`: no status, Content-Type or size check.
    public let contentType = ContentTypeRule.ignored
    public let size = SizeRule.unchecked

    /// `NSTemporaryDirectory()` + `UUID().UUIDString` + sanitized(`response.suggestedFilename`, else the last path
    /// component of the response URL), no separator; identifier the same string, `options: nil` (no type hint), so
    /// iOS types the file by the suggested name's extension. The 7.1.0 sanitizing (`lastPathComponent`, `/` and `..`
    /// to `_`) is within ``FileNaming/sanitized(_:)``'s.
    public func attachmentName(for file: DownloadedFile) -> Result<AttachmentName, Refusal> {
        .success(AttachmentName(fileName: "\(file.stem)\(file.suggestedFilename)"))
    }

    /// One URL; the attachment is appended to `content.attachments` (the module keeps those the content had).
    public let plurality = Plurality.first

    /// `messageDeliveryEvent`, for every Pushwoosh message, in parallel with the download; the content handler waits
    /// for both (PWMessageDeliveryRequest.m, PWBasePushTrackingRequest.m @ 86e3772a; PWRequestManager.m @ 88bf6db5;
    /// base `kBaseDefaultURLFormat` in Constants.h @ 47747598). The app code and HWID are the app's, not the payload's.
    public func wouldSend<Node: PayloadNode>(for payload: Node) -> [WouldSend] {
        guard isPushwooshMessage(payload) else { return [] }
        var fields: [(String, String)] = [
            ("application", "<Pushwoosh_APPID>"), ("hwid", "<HWID>"), ("device_type", "1"),
        ]
        if let hash = payload.member("p")?.string { fields.append(("hash", hash)) }
        if let metaData = payload.member("md") {
            fields.append(("metaData", metaData.string ?? "<md>"))
        }
        return [
            WouldSend(
                method: "POST", url: "https://<Pushwoosh_APPID>.api.pushwoosh.com/json/1.3/messageDeliveryEvent",
                fields: fields,
                note:
                    "only with Pushwoosh_APPID in the extension's Info.plist or, 7.1.0+, the app's; Authorization: Token <Pushwoosh_API_TOKEN>; over gRPC instead when PushwooshGRPC is linked (not confirmed); the content handler waits for its answer"
            )
        ]
    }
}
