import Foundation

/// Kumulos's `KumulosNotificationService.didReceive` (KumulosSDKExtension, 7.0.0 – 10.0.0). Optimove's mobile SDK 5.0+
/// carries the same code with renamed types (``Optimove``), so the parts both share are here, as statics.
///
/// Read in Kumulos/KumulosSdkSwift at 74c54ac2078a2f2a10fce5a01deab1ec8b44470d (10.0.0, the last release):
/// Sources/Extension/KumulosNotificationService.swift and Sources/Shared/MediaHelper.swift at
/// 5360855d89b6e5e08213937f181b732126106c74; Sources/Shared/AnalyticsHelper.swift at 5360855d; Sources/Shared/KSHttp.swift
/// at 487edf85; KumulosSdkSwiftExtension.podspec at 74c54ac2; Package.swift at 5aa99d03.
public struct Kumulos: VendorRules {
    public init() {}
    public let name = "kumulos"
    public let title = "Kumulos (KumulosNotificationService)"
    public let source = "Kumulos/KumulosSdkSwift Sources/Extension/KumulosNotificationService.swift @ 5360855d (10.0.0)"

    /// Pod `KumulosSdkSwiftExtension` with `module_name = "KumulosSDKExtension"`; product `KumulosSDKExtension` of the
    /// package KumulosSdkSwift since 8.9.0 (a20710e2). Kumulos ≤ 6.x (`Kumulos.didReceive` in module `KumulosSDK`) has
    /// no module here.
    public let sdk: VendorSDK? = VendorSDK(
        modules: ["KumulosSDKExtension"], pods: ["KumulosSdkSwiftExtension"], packages: ["kumulossdkswift"])

    /// The message id a push must carry: `validateUserInfo` walks `custom`, `a`, `k.message`, `data` (each force-cast
    /// to a dictionary) to `id` (force-cast to `Int`).
    static let messageID: PayloadKeyPath = "custom.a.k.message.data.id"
    /// `userInfo["attachments"]["pictureUrl"] as? String`.
    static let picture: PayloadKeyPath = "attachments.pictureUrl"
    /// `MediaHelper.mediaResizerBaseUrl`; the App Group's `KumulosMediaBaseUrl` replaces it when the app stored one.
    static let mediaBase = "https://i.app.delivery"
    /// `floor(UIScreen.main.bounds.size.width)`, which names the resized width of a media id: richpush's phone is 390
    /// points wide (an iPhone 12 to 16), an assumption of richpush's, not the vendor's.
    public static let screenWidthPoints = 390

    /// Whether `validateUserInfo` passes: without the message id the SDK returns without ever calling the content
    /// handler (iOS shows the original content when the extension's time runs out).
    public func handlesMessage<Node: PayloadNode>(in payload: Node) -> Bool { Self.isMessage(payload) }

    /// The gate both SDKs share (KumulosNotificationService.swift @ 5360855d; OptimoveNotificationService.swift @ 2bd2ff97).
    public static func isMessage<Node: PayloadNode>(_ payload: Node) -> Bool {
        messageID.value(in: payload) != nil
    }

    public var imageKeyPaths: [PayloadKeyPath] { [Self.picture] }
    /// A value shorter than 8 characters is kept as it is, for ``check(imageURL:)`` to refuse: Kumulos traps on it.
    public func imageRequests<Node: PayloadNode>(in payload: Node) -> [ImageRequest] {
        Self.pictureRequests(in: payload, mediaBase: Self.mediaBase, keepingShorterThan: 8)
    }

    /// The picture of a message that passes the gate: an `https://` or `http://` value as it is, else a media id
    /// resized by the vendor's CDN, `<media base>/<screen width>x/<id>` (`MediaHelper.getCompletePictureUrl`).
    /// A value shorter than `keptLength` UTF-16 units is kept as it is.
    static func pictureRequests<Node: PayloadNode>(
        in payload: Node, mediaBase: String, keepingShorterThan keptLength: Int = 0
    ) -> [ImageRequest] {
        guard isMessage(payload), let text = picture.value(in: payload)?.string else { return [] }
        let url =
            text.hasPrefix("https://") || text.hasPrefix("http://") || text.utf16.count < keptLength
            ? text : "\(mediaBase)/\(screenWidthPoints)x/\(text)"
        return [ImageRequest(keyPath: picture, url: url)]
    }

    /// A picture value shorter than 8 characters traps in `MediaHelper` (`NSRangeException`): the extension crashes. A
    /// value that is no URL traps on `url!`; richpush refuses both before any request.
    public func check(imageURL text: String) -> Result<URL, Refusal> {
        if text.utf16.count < 8 {
            return .failure(
                Refusal(
                    .invalidURL,
                    "\(title) reads the first 8 characters of attachments.pictureUrl \"\(text)\", which has fewer: NSString's substring traps and the extension crashes"
                ))
        }
        return standardCheck(imageURL: text)
    }

    /// `URLSession(configuration: .default).downloadTask(with:)`: ATS blocks http.
    public let schemes = SchemeRule.urlSession
    /// `.default` configuration, no timeout set: 60 s.
    public let timeout = TimeoutRule.fixed(.seconds(60))
    /// Only `error` and the temporary location are checked.
    public let contentType = ContentTypeRule.ignored
    public let size = SizeRule.unchecked

    /// `getPictureExtension`: `URL(fileURLWithPath: pictureUrl).pathExtension`, so everything after the value's last
    /// `/` counts, a query string included (`a.jpg?w=1` gives `jpg?w=1`); none: the same of
    /// `response.suggestedFilename`; still none: no attachment. The file is the download's temporary path plus
    /// `.<extension>`, `options: nil`.
    public func attachmentName(for file: DownloadedFile) -> Result<AttachmentName, Refusal> {
        Self.attachmentName(
            for: file, title: title, pictureExtension: Self.filePathExtension(file.url.absoluteString),
            suggestedExtension: Self.filePathExtension(file.suggestedFilename))
    }

    /// The extension `URL(fileURLWithPath:)` gives a text: that of its last `/`-separated component.
    static func filePathExtension(_ text: String) -> String {
        FileNaming.fileExtension(of: text.split(separator: "/").last.map(String.init) ?? "")
    }

    /// `loadAttachment`: the picture's extension, else the suggested name's, else nothing attached.
    static func attachmentName(
        for file: DownloadedFile, title: String, pictureExtension: String, suggestedExtension: String
    ) -> Result<AttachmentName, Refusal> {
        let chosen = pictureExtension.isEmpty ? suggestedExtension : pictureExtension
        guard !chosen.isEmpty else {
            return .failure(
                Refusal(
                    .unsupportedImageType,
                    "\(title) found no file extension in the picture URL or the suggested file name \(file.suggestedFilename), so it attaches nothing"
                ))
        }
        return .success(AttachmentName(fileName: "\(file.stem).\(FileNaming.sanitized(chosen))"))
    }

    /// `bestAttemptContent.attachments = [attachment!]`: one.
    public let plurality = Plurality.first

    /// Kumulos 8.4.0+ (5d0cb313) sends `k.message.delivered` from the extension (AnalyticsHelper.swift, KSHttp.swift),
    /// batched with any events the app had queued; the extension waits up to 10 s for it (a semaphore).
    public func wouldSend<Node: PayloadNode>(for payload: Node) -> [WouldSend] {
        guard Self.isMessage(payload) else { return [] }
        return [
            WouldSend(
                method: "POST", url: "https://events.kumulos.com/v1/app-installs/<KumulosUUID>/events",
                fields: [
                    ("type", "k.message.delivered"), ("data.type", "1"),
                    ("data.id", Self.messageID.value(in: payload)?.string ?? "<custom.a.k.message.data.id>"),
                ],
                note:
                    "only with the App Group group.<app id>.kumulos holding KumulosApiKey and KumulosSecretKey (Authorization: Basic); not for content-available 1; the extension waits up to 10 s for it"
            )
        ]
    }

    /// A picture on a push without the message id: the SDK never reaches it.
    public func missingCompanionHint<Node: PayloadNode>(in payload: Node) -> String? {
        Self.missingMessageHint(in: payload, title: title, call: "KumulosNotificationService.didReceive")
    }

    /// Not a Kumulos message: `didReceive` returns without calling the content handler (both SDKs).
    public func withheldContentHandler<Node: PayloadNode>(for payload: Node) -> String? {
        Self.withheld(for: payload, title: title, call: "KumulosNotificationService.didReceive")
    }

    static func withheld<Node: PayloadNode>(for payload: Node, title: String, call: String) -> String? {
        guard !isMessage(payload) else { return nil }
        return
            "\(title) handles only its own messages (with \(messageID)); for this push \(call) returns without calling the content handler."
    }

    static func missingMessageHint<Node: PayloadNode>(in payload: Node, title: String, call: String) -> String? {
        guard !isMessage(payload), picture.value(in: payload)?.string != nil else { return nil }
        return
            "\(title) handles only its own messages (with \(messageID)); without one \(call) returns without calling the content handler, and iOS shows the original content when the extension's time runs out."
    }
}
