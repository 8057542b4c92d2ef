/// The transient banner a notification shows when it arrives while the app is in the foreground.
struct Banner: Equatable, Sendable {
    static let duration = 4.0

    var notificationID: Int
    var title: String
    var subtitle: String
    var body: String
    /// Seconds since the UI started when the banner goes away.
    var until: Double
}
