extension NotificationRequest {
    /// The content iOS builds from the payload, as the host protocol hands it to a team's extension: the fields
    /// ``PayloadDecoder`` decoded (the sound by its rule, critical dictionary included), and what only an extension
    /// reads from `aps` (`filter-criteria`, the alert's `summary-arg`, `summary-arg-count` and `launch-image`).
    /// https://developer.apple.com/documentation/usernotifications/generating-a-remote-notification
    public var hostContent: HostContent {
        let aps = payload["aps"]?.objectValue
        let alert = aps?["alert"]?.objectValue
        return HostContent(
            title: content.title, subtitle: content.subtitle, body: content.body, badge: badge,
            sound: PayloadDecoder.sound(aps?["sound"]),
            threadIdentifier: threadID ?? "", categoryIdentifier: category ?? "",
            targetContentIdentifier: targetContentID,
            interruptionLevel: interruptionLevel, relevanceScore: relevanceScore,
            filterCriteria: aps?["filter-criteria"]?.stringValue,
            summaryArgument: alert?["summary-arg"]?.stringValue ?? "",
            summaryArgumentCount: alert?["summary-arg-count"]?.numberValue.map { Int(exactly: $0) ?? 0 } ?? 0,
            launchImageName: alert?["launch-image"]?.stringValue ?? "")
    }
}
