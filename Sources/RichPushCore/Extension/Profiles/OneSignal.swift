extension SDKProfile {
    /// OneSignal's `OneSignalNotificationServiceExtensionHandler` with `OneSignalAttachmentHandler`.
    ///
    /// Read in OneSignal/OneSignal-iOS-SDK: iOS_SDK/OneSignalSDK/OneSignalExtension/OneSignalAttachmentHandler.m at
    /// 0540578719447a4bc0b3886faab155d6b5021632; iOS_SDK/OneSignalSDK/OneSignalCore/Source/OSNotification.m (the
    /// stored version; the index lists 67f35f99c933a03d6d8897cddd6a83b1fc207d58); OneSignalCommonDefines.h and
    /// NSString+OneSignal.m for the extension list, the size limit and the MIME map (path and commit not recorded).
    public static let oneSignal = SDKProfile(
        name: "onesignal", title: "OneSignal (OneSignalAttachmentHandler)",
        source:
            "OneSignal/OneSignal-iOS-SDK iOS_SDK/OneSignalSDK/OneSignalExtension/OneSignalAttachmentHandler.m @ 05405787",
        // `parseOriginalPayload`: `_attachments = _rawPayload[@"att"]`; `parseOSDataPayload` (when os_data is a
        // dictionary): `_attachments = os_data[@"att"]`. Every key of that dictionary is one attachment.
        imageSource: .oneSignalAttachments,
        // `isWWWScheme:` sends http and https to the network; anything else is looked up in the app bundle.
        schemes: .oneSignal,
        // `downloadItemAtURL:` uses `defaultSessionConfiguration` and sets no timeout: 60 s.
        timeout: .fixed(.seconds(60)),
        // `didReceiveResponse:` cancels when `expectedContentLength > MAX_NOTIFICATION_MEDIA_SIZE_BYTES`
        // (50000000); the MIME type is only used to name the file.
        contentTypeRule: .ignored, size: .contentLengthOver(50_000_000),
        // `getSupportedFileExtensionFromURL:mimeType:`: filename= query item, MIME_MAP, url.pathExtension, query
        // items; none in ONESIGNAL_SUPPORTED_ATTACHMENT_TYPES: `return nil`, no attachment.
        naming: .oneSignal,
        // `for (NSString* key in notification.attachments)`: one after another (synchronously); a failed one is
        // skipped with `continue`.
        plurality: .eachInTurn)
}
