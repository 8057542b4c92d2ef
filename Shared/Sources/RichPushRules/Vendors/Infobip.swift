import Foundation

/// Infobip Mobile Messaging's `MobileMessagingNotificationServiceExtension.didReceive`: module
/// `MobileMessagingNotificationExtension` in 15.0.0+ (the profile), module `MobileMessaging` up to 14.x
/// (``Generation/upTo14``, which only the `MobileMessaging` compatibility module reads).
///
/// Read in infobip/mobile-messaging-sdk-ios at 3d78922de6d933c23a27dc86d18f5447737f709b (15.5.2):
/// Classes/NotificationExtension/MobileMessagingNotificationServiceExtension.swift, MMNSEMessage.swift,
/// MMNSEAttachmentDownloader.swift, MMNSEUtils.swift, MMNSEDeliveryReporter.swift and MMNSEConstants.swift at
/// 85d714e85cb0b7405ddfd5b60f04eeb9a1507373; 14.x at tag 14.4.3: Classes/MobileMessaging/RichNotifications/
/// RichNotificationsExtensions.swift and RetryableDownloadTask.swift at 46a218f0, Core/HTTP/MMRequests.swift at 46a218f0.
public struct Infobip: VendorRules {
    /// The SDK generations whose image code differs.
    public enum Generation: Sendable, Equatable {
        /// 15.0.0+: its own module, an ephemeral session with 20 s timeouts, three attempts.
        case current
        /// Up to 14.x: module `MobileMessaging`, one attempt on the SDK's session, whose 20 s setting never takes
        /// effect.
        case upTo14
    }

    public let generation: Generation

    public init(generation: Generation = .current) {
        self.generation = generation
    }

    public let name = "infobip"
    public let title = "Infobip (MobileMessagingNotificationServiceExtension)"
    public var source: String {
        switch generation {
        case .current:
            "infobip/mobile-messaging-sdk-ios Classes/NotificationExtension/MMNSEAttachmentDownloader.swift @ 85d714e8 (15.5.2)"
        case .upTo14:
            "infobip/mobile-messaging-sdk-ios Classes/MobileMessaging/RichNotifications/RichNotificationsExtensions.swift @ 46a218f0 (14.4.3)"
        }
    }

    /// 15.x: pod and product `MobileMessagingNotificationExtension` (MobileMessagingNotificationExtension.podspec @
    /// 3d78922d; Package.swift @ e020903a); up to 14.x: pod and product `MobileMessaging` (Package.swift @ 14.4.3
    /// aebd9162). Both from the package mobile-messaging-sdk-ios.
    public let sdk: VendorSDK? = VendorSDK(
        modules: ["MobileMessagingNotificationExtension", "MobileMessaging"],
        pods: ["MobileMessagingNotificationExtension", "MobileMessaging"], packages: ["mobile-messaging-sdk-ios"])

    /// `MMNSEMessage(payload:)` (≤ 14: `MM_MTMessage(payload:)`): `messageId` a string and `aps` present; any other
    /// payload is handed back unchanged (`isCorrectPayload` says false).
    public func isCorrectPayload<Node: PayloadNode>(_ payload: Node) -> Bool {
        payload.member("messageId")?.string != nil && payload.member("aps") != nil
    }

    /// `internalData.atts` (an array of dictionaries) and its first element's `url`; the others are not read.
    public let imageKeyPaths: [PayloadKeyPath] = ["internalData.atts.0.url"]
    public func imageRequests<Node: PayloadNode>(in payload: Node) -> [ImageRequest] {
        guard isCorrectPayload(payload), let first = payload.member("internalData")?.member("atts")?.elements?.first,
            let url = first.member("url")?.string
        else { return [] }
        return [ImageRequest(keyPath: imageKeyPaths[0], url: url)]
    }

    /// An image URL on a payload that is not an Infobip message (no string `messageId`, or no `aps`).
    public func missingCompanionHint<Node: PayloadNode>(in payload: Node) -> String? {
        guard !isCorrectPayload(payload),
            payload.member("internalData")?.member("atts")?.elements?.first?.member("url")?.string != nil
        else { return nil }
        return
            "\(title) handles only Infobip messages, with a string messageId beside aps; without one the content is handed back unchanged."
    }

    /// `URL(string:)` (`safeUrl`) then URLSession: ATS blocks http.
    public let schemes = SchemeRule.urlSession

    /// 15.x: `URLSessionConfiguration.ephemeral` with `timeoutIntervalForRequest` and `…ForResource` 20, up to three
    /// attempts 0.5 s and 1 s apart (MMNSEAttachmentDownloader.swift); richpush makes one attempt, so a transient
    /// failure that a second attempt would mend is not reproduced, and three stalled attempts (61.5 s) outlast iOS's
    /// 30 s either way. ≤ 14: `RetryableDownloadTask` ignores its `attemptsCount` (one attempt) and sets the timeouts on
    /// a copy of the session's configuration, so URLSession's 60 s default applies.
    public var timeout: TimeoutRule {
        switch generation {
        case .current: .fixed(.seconds(20))
        case .upTo14: .fixed(.seconds(60))
        }
    }

    /// No status, Content-Type or size check in either generation.
    public let contentType = ContentTypeRule.ignored
    public let size = SizeRule.unchecked

    /// `<tmp>/com.mobile-messaging.rich-notifications-attachments/<sha256(url.absoluteString)>.<url.pathExtension>`
    /// (MMNSEUtils.swift; ≤ 14 MMUtils.swift): the extension comes only from the URL's path, so a URL without one
    /// gives a name ending in "." that iOS cannot type; `options: nil`. richpush keeps the download's own name
    /// before the dot, not the SHA-256: nothing depends on it.
    public func attachmentName(for file: DownloadedFile) -> Result<AttachmentName, Refusal> {
        .success(AttachmentName(fileName: "\(file.stem).\(FileNaming.sanitized(file.url.pathExtension))"))
    }

    /// `mContent.attachments = [attachment]`: the first attachment only, replacing any the content had.
    public let plurality = Plurality.first

    /// The delivery report, for every Infobip message, run with the download; the content handler waits for both
    /// (MMNSEDeliveryReporter.swift, MMNSEConstants.swift @ 85d714e8; ≤ 14 MMRequests.swift @ 46a218f0).
    public func wouldSend<Node: PayloadNode>(for payload: Node) -> [WouldSend] {
        guard isCorrectPayload(payload), let messageID = payload.member("messageId")?.string else { return [] }
        return [
            WouldSend(
                method: "POST", url: "https://mobile.infobip.com/mobile/1/messages/deliveryreport",
                fields: [("dlrIds", "[\(messageID)]")],
                note:
                    "only with the application code the app stored in the shared keychain and com.mobilemessaging.app_group in the app's Info.plist (Authorization: App <application code>); the App Group's com.mobile-messaging.dynamic-base-url replaces the host"
            )
        ]
    }
}
