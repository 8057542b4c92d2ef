/// Payload values the phone ignores or lowers, each said in a sentence like the `aps` key hints: what iOS does with
/// the notification's level, score and summary keys.
public enum PhoneLints {
    /// Sentences for the payload, in order; empty when it says nothing odd. `priority` is the push's
    /// `apns-priority`, when it came over the network.
    public static func sentences(for request: NotificationRequest, priority: Int?) -> [String] {
        let aps = request.payload["aps"]?.objectValue ?? JSONObject()
        var found: [String] = []
        // https://developer.apple.com/documentation/usernotifications/unnotificationinterruptionlevel
        if let level = aps["interruption-level"]?.stringValue,
            HostContent.InterruptionLevel(rawValue: level) == nil
        {
            let known = HostContent.InterruptionLevel.allCases.map(\.rawValue)
            let nearest = known.min {
                EditDistance.between(Array(level), Array($0)) < EditDistance.between(Array(level), Array($1))
            }
            let meant = nearest.flatMap { EditDistance.between(Array(level), Array($0)) <= 3 ? $0 : nil }
            found.append(
                "aps.interruption-level \"\(TextSanitizer.singleLine(level, limit: 40))\" is not a level iOS knows, so it delivers the notification as active"
                    + (meant.map { ": did you mean \"\($0)\"?" } ?? " (passive, active, time-sensitive, critical)."))
        }
        // https://developer.apple.com/documentation/usernotifications/unnotificationcontent/relevancescore
        if let score = request.relevanceScore, !(0...1).contains(score) {
            found.append(
                "aps.relevance-score is \(JSONWriter.format(score)); iOS reads a score from 0 to 1, so it is clamped to \(score < 0 ? "0" : "1")."
            )
        }
        // https://developer.apple.com/documentation/usernotifications/unnotificationcontent/summaryargument
        let alert = aps["alert"]?.objectValue
        if alert?["summary-arg"] != nil || alert?["summary-arg-count"] != nil {
            found.append(
                "aps.alert.summary-arg and summary-arg-count are ignored since iOS 15: the summary counts the notifications itself."
            )
        }
        // https://developer.apple.com/documentation/usernotifications/sending-notification-requests-to-apns
        if priority == 5, aps["content-available"] == .number(1), request.content.hasAlertText {
            found.append(
                "apns-priority 5 with an alert and content-available: APNs sends priority 5 at times that save power, so the alert may arrive late; send alerts at priority 10."
            )
        }
        return found
    }
}
