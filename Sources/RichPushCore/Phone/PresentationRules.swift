/// The three ways a phone shows one notification.
public enum NotificationView: String, Sendable, CaseIterable, Codable {
    /// The row on the lock screen, also the row in Notification Center.
    case lockScreen
    /// The banner that slides in while the phone is unlocked.
    case banner
    /// The long-press view: the media wide, the whole action list under it.
    case expanded

    /// How people call it: "lock screen", "banner", "expanded".
    public var label: String {
        switch self {
        case .lockScreen: "lock screen"
        case .banner: "banner"
        case .expanded: "expanded"
        }
    }
}

/// How much of a notification each view has room for: the one place richpush's layout rules are written.
///
/// Apple publishes no numbers. Its Human Interface Guidelines say only "don't truncate your message — the system
/// does this automatically when necessary" (https://developer.apple.com/design/human-interface-guidelines/notifications).
/// The line counts are Braze's measurements on iOS 15+: the title on 1 line in every view, the body on 4 lines on the
/// lock screen and in Notification Center, 2 in a banner, 7 in the long-press view; a thumbnail costs about 10
/// characters of each body line, and the timestamp shortens the title ("now": 35 characters)
/// (https://www.braze.com/docs/user_guide/message_building_by_channel/push/ios/rich_notifications/).
/// Braze recommends 30 to 40 characters a line, which is the line width here, counted in display columns (a CJK
/// character or an emoji is two). The action counts are Apple's: "up to 10" where space is unlimited, 2 where it is
/// limited (https://developer.apple.com/documentation/usernotifications/unnotificationcategory).
///
/// Everything drawn (the JSON result's `presentation`, the TUI, the HTML report) reads these rules through
/// ``NotificationPresentation``, so changing one here changes all of them.
public struct PresentationRules: Sendable, Equatable {
    /// Lines of title, of subtitle and of body each view shows.
    public var titleLines: [NotificationView: Int]
    public var subtitleLines: [NotificationView: Int]
    public var bodyLines: [NotificationView: Int]
    /// How many of the category's actions each view shows (the lock screen row shows none until long-pressed).
    public var actions: [NotificationView: Int]
    /// A line of text, in display columns.
    public var lineColumns: Int
    /// What a square thumbnail takes off each line beside it (its width and the gap before it).
    public var thumbnailColumns: Int
    /// Columns between the title and the timestamp on its right.
    public var timestampGap: Int
    /// The timestamp a just-arrived notification shows.
    public var timestamp: String

    public init(
        titleLines: [NotificationView: Int], subtitleLines: [NotificationView: Int],
        bodyLines: [NotificationView: Int], actions: [NotificationView: Int], lineColumns: Int,
        thumbnailColumns: Int, timestampGap: Int, timestamp: String
    ) {
        self.titleLines = titleLines
        self.subtitleLines = subtitleLines
        self.bodyLines = bodyLines
        self.actions = actions
        self.lineColumns = lineColumns
        self.thumbnailColumns = thumbnailColumns
        self.timestampGap = timestampGap
        self.timestamp = timestamp
    }

    /// The rules as measured on iOS 15 and later (see the type's sources).
    public static let iOS = PresentationRules(
        titleLines: [.lockScreen: 1, .banner: 1, .expanded: 1],
        subtitleLines: [.lockScreen: 1, .banner: 1, .expanded: 1],
        bodyLines: [.lockScreen: 4, .banner: 2, .expanded: 7],
        actions: [.lockScreen: 0, .banner: 2, .expanded: 10],
        lineColumns: 40, thumbnailColumns: 10, timestampGap: 2, timestamp: "now")

    /// What every view that shows these rules says of them.
    public static let approximation =
        "approximate: Apple documents no limits; line counts are Braze's measurements (iOS 15+), 40 columns a line"
}
