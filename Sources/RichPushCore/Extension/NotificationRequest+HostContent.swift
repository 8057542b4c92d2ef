extension NotificationRequest {
    /// The content iOS builds from the payload, as the host protocol hands it to a team's extension: the fields
    /// ``PayloadDecoder`` decoded, and what only an extension reads from `aps` (a critical sound's dictionary,
    /// `filter-criteria`, the alert's `summary-arg`, `summary-arg-count` and `launch-image`).
    /// https://developer.apple.com/documentation/usernotifications/generating-a-remote-notification
    public var hostContent: HostContent {
        let aps = payload["aps"]?.objectValue
        let alert = aps?["alert"]?.objectValue
        var sound = self.sound.map { HostSound(name: $0 == "default" ? nil : $0) }
        if let dictionary = aps?["sound"]?.objectValue {
            let critical: Bool =
                switch dictionary["critical"] {
                case .number(let value)?: value == 1
                case .bool(let value)?: value
                default: false
                }
            sound = HostSound(
                name: dictionary["name"]?.stringValue.flatMap { $0 == "default" ? nil : $0 }, critical: critical,
                volume: critical ? dictionary["volume"]?.numberValue : nil)
        }
        return HostContent(
            title: content.title, subtitle: content.subtitle, body: content.body, badge: badge, sound: sound,
            threadIdentifier: threadID ?? "", categoryIdentifier: category ?? "",
            targetContentIdentifier: targetContentID,
            interruptionLevel: interruptionLevel, relevanceScore: relevanceScore,
            filterCriteria: aps?["filter-criteria"]?.stringValue,
            summaryArgument: alert?["summary-arg"]?.stringValue ?? "",
            summaryArgumentCount: alert?["summary-arg-count"]?.numberValue.map { Int(exactly: $0) ?? 0 } ?? 0,
            launchImageName: alert?["launch-image"]?.stringValue ?? "")
    }
}
