extension SDKProfile {
    /// Batch's `BAENotificationServiceExtension` with `RichNotificationHelper`.
    ///
    /// Read in BatchLabs/Batch-iOS-SDK-Extension: Sources/Swift/Rich Notifications/RichNotificationHelper.swift at
    /// 4085287e70fb535d96e0b846ced05b8d377b6621; Sources/Swift/Consts.swift at 9c3730cfbc7b90abd1f112e9ca3c855fac0d6a72.
    public static let batch = SDKProfile(
        name: "batch", title: "Batch (RichNotificationHelper)",
        source:
            "BatchLabs/Batch-iOS-SDK-Extension Sources/Swift/Rich Notifications/RichNotificationHelper.swift @ 4085287e",
        // `payload["com.batch"]["at"]["u"]` and `["t"]`; either missing: `noRichDataFound`.
        imageSource: .typed(url: "com.batch.at.u", type: "com.batch.at.t"),
        // `session.downloadTask(with:)`: ATS applies.
        schemes: .urlSession,
        // `timeoutIntervalForResource = TimeInterval(Consts.timeoutIntervalSecs)`, 20 s for the whole download.
        timeout: .fixed(.seconds(20)),
        // Only the error and the location are checked.
        contentTypeRule: .ignored, size: .unchecked,
        // `UNNotificationAttachment(…, url: downloadedAttachment.fileUrl, options: [TypeHintKey: attachment.type])`:
        // the download's own file, typed by the payload's `t`.
        naming: .payloadTypeHint,
        // One attachment.
        plurality: .first)
}
