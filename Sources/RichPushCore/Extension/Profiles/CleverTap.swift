extension SDKProfile {
    /// CleverTap's `CTNotificationServiceExtension`.
    ///
    /// Read in CleverTap/CTNotificationService, CTNotificationService/CTNotificationServiceExtension.m at
    /// 12126a504a870d55333b76d58cff84816e62ac8b.
    public static let cleverTap = SDKProfile(
        name: "clevertap", title: "CleverTap (CTNotificationServiceExtension)",
        source: "CleverTap/CTNotificationService CTNotificationService/CTNotificationServiceExtension.m @ 12126a50",
        // `kMediaUrlKey = @"ct_mediaUrl"`, `kMediaTypeKey = @"ct_mediaType"`; either missing: `contentComplete`.
        imageSource: .typed(url: "ct_mediaUrl", type: "ct_mediaType"),
        // `downloadTaskWithURL:` on `defaultSessionConfiguration`: ATS applies.
        schemes: .urlSession,
        // No timeout set: 60 s.
        timeout: .fixed(.seconds(60)),
        // Only `error != nil` is checked.
        contentTypeRule: .ignored, size: .unchecked,
        // `fileExtensionForMediaType:`: image → jpg, video → mp4, audio → mp3, anything else used as given.
        naming: .payloadType(map: ["image": "jpg", "video": "mp4", "audio": "mp3"]),
        // `[NSArray arrayWithObject:attachment]`: one.
        plurality: .first)
}
