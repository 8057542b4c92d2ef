extension SDKProfile {
    /// Braze's service extension as its documentation had apps copy it (the Appboy sample). The source of the
    /// current Braze Swift SDK's `BrazeNotificationService` was not found; how it differs is not confirmed.
    ///
    /// Read in Appboy/appboy-ios-sdk, HelloSwift/HelloSwiftNotificationExtension/NotificationService.swift at
    /// 200eb476a5ab648a7e8835a9c1166f23d0e2ea9e.
    public static let braze = SDKProfile(
        name: "braze", title: "Braze (Appboy NotificationService sample)",
        source: "Appboy/appboy-ios-sdk HelloSwift/HelloSwiftNotificationExtension/NotificationService.swift @ 200eb476",
        // `userInfo["ab"]["att"]["url"]`, and "Push attachment has no type." ends it without `["type"]`.
        imageSource: .typed(url: "ab.att.url", type: "ab.att.type"),
        // `URLSession(configuration: .default).downloadTask(with:)`: ATS applies.
        schemes: .urlSession,
        // `.default` configuration, no timeout set: 60 s.
        timeout: .fixed(.seconds(60)),
        // Only `error != nil` is checked.
        contentTypeRule: .ignored, size: .unchecked,
        // `"\(temporaryFileLocation!.path).\(attachmentType)"`: the payload's type, verbatim.
        naming: .payloadType(map: [:]),
        // `attachments = [attachment!]`: one.
        plurality: .first)
}
