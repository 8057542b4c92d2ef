extension SDKProfile {
    /// Airship's `UANotificationServiceExtension` with `AirshipNotificationMutationProvider`.
    ///
    /// Read in urbanairship/ios-library, AirshipExtensions/AirshipNotificationServiceExtension/Source/:
    /// AirshipNotificationMutationProvider.swift and UANotificationServiceExtension.swift at
    /// 01e28d2602ff22558f28681906f0c264455631c6; MediaAttachmentPayload.swift (the stored version; the index lists
    /// 6858b2970feeb3d47960a584c91785246502e42c).
    public static let airship = SDKProfile(
        name: "airship", title: "Airship (UANotificationServiceExtension)",
        source:
            "urbanairship/ios-library AirshipExtensions/AirshipNotificationServiceExtension/Source/AirshipNotificationMutationProvider.swift @ 01e28d26",
        // `com.urbanairship.media_attachment`: `urls` ([{url, url_id}]) when present, else `url` (a string or an
        // array of strings) (MediaAttachmentPayload.init(from:)).
        imageSource: .airshipMedia,
        // `URLSession(configuration: .default, delegate: ChallengeResolver.shared, …).download(from:)`: ATS applies.
        schemes: .urlSession,
        // `.default` configuration, no timeout set: 60 s.
        timeout: .fixed(.seconds(60)),
        // No Content-Type or size check; the MIME type only feeds the type hint.
        contentTypeRule: .ignored, size: .unchecked,
        // `correctFileExtension`: `localURL.path + "-" + original.lastPathComponent`; without a supported suffix,
        // `hintMimeType`: UTType from the MIME type, else `FileHeader.supportedHeaders` (magic bytes).
        naming: .airship,
        // `withThrowingTaskGroup`: every URL at once; `for try await` rethrows the first failure and
        // `mutations.apply` maps every attachment with `try`, so one failure leaves none.
        plurality: .allOrNothing)
}
