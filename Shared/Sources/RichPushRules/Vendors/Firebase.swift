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
}
