extension SDKProfile {
    /// Iterable's `ITBNotificationServiceExtension`.
    ///
    /// Read in Iterable/iterable-swift-sdk, notification-extension/ITBNotificationServiceExtension.swift at
    /// 036dd8a3a2ee2c3eeec7745f330a6b6740c38dc1 (`JsonKey.Payload`: metadata "itbl", attachmentUrl "attachment-url").
    public static let iterable = SDKProfile(
        name: "iterable", title: "Iterable (ITBNotificationServiceExtension)",
        source: "Iterable/iterable-swift-sdk notification-extension/ITBNotificationServiceExtension.swift @ 036dd8a3",
        // `content.userInfo["itbl"]["attachment-url"]`.
        imageSource: .keyPath("itbl.attachment-url"),
        // `URLSession.shared.downloadTask(with:)`: ATS applies.
        schemes: .urlSession,
        // `URLSession.shared`: 60 s.
        timeout: .fixed(.seconds(60)),
        // Only `error == nil` and a response are checked.
        contentTypeRule: .ignored, size: .unchecked,
        // `UUID().uuidString + (response.suggestedFilename ?? responseUrl.lastPathComponent)`.
        naming: .suggestedFilename(.whole(separator: "")),
        // `content.attachments.append(attachment)` for the one URL.
        plurality: .first)
}
