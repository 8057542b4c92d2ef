extension SDKProfile {
    /// Customer.io's rich push handling (`MessagingPush` `RichPushRequest`).
    ///
    /// Read in customerio/customerio-ios: Sources/MessagingPush/RichPush/RichPushHttpClient.swift at
    /// 00800f338f73f4c99d3b84fad86d5a98d27bf2fb; `cioImage` (`CIO.push.image`) and
    /// `HttpRequestRunner.downloadFile` found by content (path and commit not recorded).
    public static let customerIO = SDKProfile(
        name: "customerio", title: "Customer.io (RichPushRequest)",
        source: "customerio/customerio-ios Sources/MessagingPush/RichPush/RichPushHttpClient.swift @ 00800f33",
        // `cioPushPayload?["image"]` where `cioPushPayload` is `data["CIO"]["push"]`.
        imageSource: .keyPath("CIO.push.image"),
        // `session.downloadTask(with:)` on an ephemeral session: ATS applies.
        schemes: .urlSession,
        // `getBasicSession`: `timeoutIntervalForResource = 30` (the whole download), request 60.
        timeout: .fixed(.seconds(30)),
        // Only a temp location and a suggested file name are required.
        contentTypeRule: .ignored, size: .unchecked,
        // `UUID().uuidString + "_" + suggestedFileName`.
        naming: .suggestedFilename(.whole(separator: "_")),
        // "At this time, an image is the only attachment our SDK adds to a push."
        plurality: .first)
}
