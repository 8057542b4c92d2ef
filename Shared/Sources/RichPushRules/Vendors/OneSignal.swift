import Foundation

/// OneSignal's `OneSignalNotificationServiceExtensionHandler` with `OneSignalAttachmentHandler`.
///
/// Read in OneSignal/OneSignal-iOS-SDK: iOS_SDK/OneSignalSDK/OneSignalExtension/OneSignalAttachmentHandler.m at
/// 0540578719447a4bc0b3886faab155d6b5021632; iOS_SDK/OneSignalSDK/OneSignalCore/Source/OSNotification.m (the stored
/// version; the index lists 67f35f99c933a03d6d8897cddd6a83b1fc207d58); OneSignalCommonDefines.h and
/// NSString+OneSignal.m for the extension list, the size limit and the MIME map (path and commit not recorded).
public struct OneSignal: VendorRules {
    public init() {}
    public let name = "onesignal"
    public let title = "OneSignal (OneSignalAttachmentHandler)"
    public let source =
        "OneSignal/OneSignal-iOS-SDK iOS_SDK/OneSignalSDK/OneSignalExtension/OneSignalAttachmentHandler.m @ 05405787"

    /// What an extension names of OneSignal: `OneSignalExtension` (5.x, class `OneSignalExtension`:
    /// OneSignalExtension/OneSignalExtension.h @ 1d291010) and `OneSignal` (2.x/3.x, the same class methods on
    /// `OneSignal`: Source/OneSignal.h @ 00b3e996); pod `OneSignal` (source) or `OneSignalXCFramework`, package
    /// OneSignal-XCFramework (Package.swift @ 020da678). No base class: the extension subclasses
    /// `UNNotificationServiceExtension` itself and calls the class methods.
    public var sdk: VendorSDK? {
        VendorSDK(
            modules: ["OneSignalExtension", "OneSignal"], pods: ["OneSignalXCFramework", "OneSignal"],
            packages: ["onesignal-xcframework"])
    }

    public let imageKeyPaths: [PayloadKeyPath] = ["att", "os_data.att"]

    /// `parseOriginalPayload`: `_attachments = _rawPayload[@"att"]`; `parseOSDataPayload` (when os_data is a
    /// dictionary): `_attachments = os_data[@"att"]`. Every key of that dictionary is one attachment.
    public func imageRequests<Node: PayloadNode>(in payload: Node) -> [ImageRequest] {
        let container: PayloadKeyPath = payload.member("os_data")?.isObject == true ? "os_data.att" : "att"
        guard let attachments = container.value(in: payload)?.members else { return [] }
        return attachments.compactMap { key, value in
            value.string.map { ImageRequest(keyPath: container.appending(key), url: $0) }
        }
    }

    /// `isWWWScheme:` sends http and https to the network (where ATS allows https only); anything else is looked up
    /// in the app bundle.
    public let schemes = SchemeRule.urlSession

    public func check(imageURL text: String) -> Result<URL, Refusal> {
        if let scheme = URL(string: text)?.scheme?.lowercased(), !scheme.isEmpty, scheme != "http", scheme != "https" {
            return .failure(
                Refusal(
                    .invalidURL,
                    "\(title) treats a \(scheme): value as a file in the app bundle, which richpush does not emulate"))
        }
        return standardCheck(imageURL: text)
    }

    /// `downloadItemAtURL:` uses `defaultSessionConfiguration` and sets no timeout: 60 s.
    public let timeout = TimeoutRule.fixed(.seconds(60))
    /// `didReceiveResponse:` cancels when `expectedContentLength > MAX_NOTIFICATION_MEDIA_SIZE_BYTES` (50000000); the
    /// MIME type is only used to name the file.
    public let contentType = ContentTypeRule.ignored
    public let size = SizeRule.contentLengthOver(50_000_000)

    /// `getSupportedFileExtensionFromURL:mimeType:`: filename= query item, MIME_MAP, url.pathExtension, query items;
    /// none in ONESIGNAL_SUPPORTED_ATTACHMENT_TYPES: `return nil`, no attachment.
    public func attachmentName(for file: DownloadedFile) -> Result<AttachmentName, Refusal> {
        guard let fileExtension = Self.supportedExtension(url: file.url, mediaType: file.mediaType) else {
            let written = FileNaming.fileExtension(of: file.url.lastPathComponent)
            return .failure(
                Refusal(
                    .unsupportedImageType,
                    "\(title) found no supported file extension (no filename= query item, MIME type \(file.mediaType ?? "none") not in its map, URL extension \"\(FileNaming.sanitized(written))\"), so it attaches nothing; it attaches \(Self.supported.joined(separator: ", ")) only"
                ))
        }
        return .success(AttachmentName(fileName: "\(file.stem).\(fileExtension)"))
    }

    /// `for (NSString* key in notification.attachments)`: one after another (synchronously); a failed one is skipped
    /// with `continue`.
    public let plurality = Plurality.eachInTurn

    /// The confirmed-delivery receipt (OneSignalReceiveReceiptsController.m, index id 55131668885; the request in
    /// OneSignalExtension/OneSignalExtensionRequests.m @ 974ae65a): `PUT notifications/<id>/report_received` on
    /// `OS_API_SERVER_URL` (`https://api.onesignal.com/`, OneSignalCommonDefines.h of 3.11.1) with the app id and
    /// player id the app left in the App Group. The notification id is `os_data.i`, or `custom.i` in the original
    /// format (OSNotification.m @ 67f35f99, `parseCommonOneSignalFields:`); without one nothing is sent.
    public func wouldSend<Node: PayloadNode>(for payload: Node) -> [WouldSend] {
        let container = payload.member("os_data")?.isObject == true ? "os_data" : "custom"
        guard let notificationID = payload.member(container)?.member("i")?.string, !notificationID.isEmpty else {
            return []
        }
        return [
            WouldSend(
                method: "PUT", url: "https://api.onesignal.com/notifications/\(notificationID)/report_received",
                fields: [
                    ("app_id", "(GT_APP_ID from the App Group)"),
                    ("player_id", "(GT_PLAYER_ID from the App Group, or null)"), ("device_type", "0"),
                ],
                note:
                    "only when the App Group (Info.plist OneSignal_app_groups_key, else group.<app bundle id>.onesignal) holds GT_APP_ID and OS_ENABLE_RECEIVE_RECEIPTS is true; after a random delay of 0-24 s, which the extension waits for up to 30 s after calling the content handler"
            )
        ]
    }

    /// `ONESIGNAL_SUPPORTED_ATTACHMENT_TYPES` (OneSignalCommonDefines.h).
    static let supported = [
        "aiff", "wav", "mp3", "mp4", "jpg", "jpeg", "png", "gif", "mpeg", "mpg", "avi", "m4a", "m4v",
    ]

    /// `MIME_MAP` (NSString+OneSignal.m): OneSignal's own, not the system's.
    static let mimeMap: [String: String] = [
        "audio/aiff": "aiff", "audio/x-wav": "wav", "audio/mpeg": "mp3", "video/mp4": "mp4", "image/jpeg": "jpeg",
        "image/jpg": "jpg", "image/png": "png", "image/gif": "gif", "video/mpeg": "mpeg", "video/mpg": "mpg",
        "video/avi": "avi", "sound/m4a": "m4a", "video/m4v": "m4v",
    ]

    /// `supportedFileExtension`: the last dot-separated component when there are two or more and it is supported
    /// (case-sensitive, as `containsObject:` is).
    static func supportedExtension(of text: String) -> String? {
        let components = text.split(separator: ".", omittingEmptySubsequences: false)
        guard components.count >= 2, let last = components.last, supported.contains(String(last)) else { return nil }
        return String(last)
    }

    /// `getSupportedFileExtensionFromURL:mimeType:`: the `filename` query item, the MIME type, the URL's extension,
    /// then any query item.
    static func supportedExtension(url: URL, mediaType: String?) -> String? {
        let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        if let filename = items.first(where: { $0.name == "filename" })?.value,
            let found = supportedExtension(of: filename)
        {
            return found
        }
        if let mediaType, let mapped = mimeMap[mediaType], supported.contains(mapped) { return mapped }
        let pathExtension = FileNaming.fileExtension(of: url.lastPathComponent)
        if supported.contains(pathExtension) { return pathExtension }
        for item in items {
            if let value = item.value, let found = supportedExtension(of: value) { return found }
        }
        return nil
    }
}
