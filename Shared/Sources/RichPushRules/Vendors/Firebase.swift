import Foundation

/// Firebase Messaging's `FIRMessagingExtensionHelper` (FirebaseMessaging 7.0.0 and later).
///
/// Read in firebase/firebase-ios-sdk, FirebaseMessaging/Sources/FIRMessagingExtensionHelper.m at
/// 6c7e8a73f4a3fa50ad3bc113f1b81e87a79574f9 (12.18.0); the naming rule since 7.0.0 is commit
/// 49afa26c0abcb764a0489cbc342a43cf19f3e213 (#6591). Before it (FirebaseMessaging 3.5–6.x) the file was named
/// `"." + suggestedFilename.pathExtension`, a bare trailing dot when empty.
public struct Firebase: VendorRules {
    public init() {}
    public let name = "firebase"
    public let title = "Firebase (FIRMessagingExtensionHelper)"
    public let source = "firebase/firebase-ios-sdk FirebaseMessaging/Sources/FIRMessagingExtensionHelper.m @ 6c7e8a73"

    /// What an extension names of Firebase (firebase/firebase-ios-sdk @ eed63a35, 12.19.0): the module
    /// `FirebaseMessaging` (`Package.swift`, target and product of that name; `FirebaseMessaging.podspec`), the umbrella
    /// `Firebase` (`CoreOnly/Sources`, pod `Firebase` with subspec `Firebase/Messaging`) and `FirebaseCore` for
    /// `FirebaseApp.configure()`. The extension helper has had the same Swift API since FirebaseMessaging 3.5.0
    /// (Firebase 5.20.0). No base class: the extension subclasses `UNNotificationServiceExtension` itself.
    public var sdk: VendorSDK? {
        VendorSDK(
            modules: ["FirebaseMessaging", "Firebase", "FirebaseCore"],
            pods: ["FirebaseMessaging", "Firebase", "FirebaseCore"], packages: ["firebase-ios-sdk"])
    }

    /// `content.userInfo[kPayloadOptionsName][kPayloadOptionsImageURLName]`: fcm_options.image, nothing else; since
    /// 12.18.0 a non-dictionary `fcm_options` or a non-string `image` delivers the content unchanged.
    public let imageKeyPaths: [PayloadKeyPath] = ["fcm_options.image"]
    public func imageRequests<Node: PayloadNode>(in payload: Node) -> [ImageRequest] {
        imageKeyPaths[0].imageRequests(in: payload)
    }

    /// `[NSURL URLWithString:]` then `downloadTaskWithURL:`: no scheme check of its own; ATS blocks http.
    public let schemes = SchemeRule.urlSession
    /// `[NSURLSessionConfiguration defaultSessionConfiguration]`: no timeout set, NSURLSession's 60 s default.
    public let timeout = TimeoutRule.fixed(.seconds(60))
    /// The completion handler looks only at `error`: no status, Content-Type, size or magic-byte check.
    public let contentType = ContentTypeRule.ignored
    public let size = SizeRule.unchecked

    /// `fileExtensionForResponse:`: the suggested file name's extension when it has one; else, when the MIME type
    /// contains `image/`, the MIME type with `image/` replaced by `.` (refused since 12.17.0 if a `/` is left); else
    /// nothing, not even a dot. The file is `temporaryFileLocation.path` + that.
    public func attachmentName(for file: DownloadedFile) -> Result<AttachmentName, Refusal> {
        var suffix = ""
        let fileExtension = FileNaming.fileExtension(of: file.suggestedFilename)
        if !fileExtension.isEmpty {
            suffix = "." + fileExtension
        } else if let mediaType = file.mediaType, mediaType.contains("image/") {
            let replaced = mediaType.replacingOccurrences(of: "image/", with: ".")
            if !replaced.contains("/") { suffix = FileNaming.sanitized(replaced) }
        }
        return .success(AttachmentName(fileName: file.stem + suffix))
    }

    /// `self.bestAttemptContent.attachments = @[ attachment ]`: one, replacing any the content had.
    public let plurality = Plurality.first

    /// `exportDeliveryMetricsToBigQueryWithMessageInfo:` (FIRMessagingExtensionHelper.m @ 6c7e8a73, since 8.6.0), which
    /// Firebase's sample extension calls before `populateNotificationContent`: a MESSAGE_DELIVERED event for log source
    /// 1249, handed to GoogleDataTransport, which stores it and uploads it in a batch later
    /// (GDTCCTUploadOperation.m @ 80e91edb; the URL from GDTCOREndpoints.m @ 0dd8cc87). Nothing is logged unless the
    /// payload has `google.c.sender.id`, and `gcm.message_id` and `google.c.fid` as strings, checked in that order
    /// (codes 2005-2007). Keys from FIRMessagingConstants.m @ a669d64a.
    public func wouldSend<Node: PayloadNode>(for payload: Node) -> [WouldSend] {
        guard let sender = payload.member("google.c.sender.id"),
            let messageID = payload.member("gcm.message_id")?.string,
            let installationID = payload.member("google.c.fid")?.string
        else { return [] }
        var fields: [(String, String)] = [
            ("project_number", sender.string ?? "(google.c.sender.id)"), ("message_id", messageID),
            ("instance_id", installationID), ("message_type", "DISPLAY_NOTIFICATION"), ("sdk_platform", "IOS"),
            ("package_name", "(the app's bundle id)"), ("event", "MESSAGE_DELIVERED"),
        ]
        for (key, field) in [
            ("google.c.a.m_l", "analytics_label"), ("google.c.a.c_id", "campaign_id"),
            ("google.c.a.c_l", "composer_label"),
        ] {
            if let value = payload.member(key)?.string { fields.append((field, value)) }
        }
        return [
            WouldSend(
                method: "POST", url: "https://firebaselogging.googleapis.com/v0cc/log/batch", fields: fields,
                note:
                    "FCM delivery event for BigQuery, log source 1249, queued by GoogleDataTransport and uploaded in a later batch; only when the extension calls exportDeliveryMetricsToBigQuery(withMessageInfo:)"
            )
        ]
    }
}
