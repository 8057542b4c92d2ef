/// The transient banner a notification shows when it arrives and the phone draws a banner for it (its delivery's
/// `shownIn`): the phone unlocked and nothing holding it back, or the foreground app's willPresent returning `.banner`.
struct Banner: Equatable, Sendable {
    static let duration = 4.0

    var notificationID: Int
    /// Whether the app was in the foreground (the banner says so).
    var inForeground = true
    var title: String
    var subtitle: String
    var body: String
    /// Seconds since the UI started when the banner goes away.
    var until: Double
}
