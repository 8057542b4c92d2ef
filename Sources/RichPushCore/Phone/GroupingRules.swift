/// The group a notification joins on the lock screen and in Notification Center, shown as one stack with the newest
/// on top.
public enum NotificationGroup: Sendable, Hashable {
    /// The app's notifications of one `thread-id` (`threadIdentifier`).
    case thread(String)
    /// All the app's notifications (automatic grouping of those without a `thread-id`, or grouping by app).
    case app

    /// The contract's `presentation.group`: `{"by": "thread", "thread": "…"}` or `{"by": "app", "thread": null}`.
    public var jsonValue: JSONValue {
        switch self {
        case .thread(let thread): ["by": "thread", "thread": .string(thread)]
        case .app: ["by": "app", "thread": .null]
        }
    }

    /// What a stack of this group is called ("thread chat-42", "the app").
    public var label: String {
        switch self {
        case .thread(let thread): "thread \(TextSanitizer.singleLine(thread, limit: 40))"
        case .app: "the app"
        }
    }
}

/// Which group a notification joins, by Settings › Notifications › (app) › Notification Grouping. Sources: WWDC18
/// "Using Grouped Notifications" (session 711: app grouping by default, custom grouping by thread identifier,
/// https://developer.apple.com/videos/play/wwdc2018/711/), and `threadIdentifier`, "the identifier that groups related
/// notifications" (https://developer.apple.com/documentation/usernotifications/unnotificationcontent/threadidentifier).
public enum GroupingRules {
    /// - automatic: by `thread-id`; the notifications without one together, as the app's group;
    /// - by app: every notification of the app in one group;
    /// - off: no group, each notification on its own.
    public static func group(threadIdentifier: String, grouping: DeviceState.Grouping) -> NotificationGroup? {
        switch grouping {
        case .automatic: threadIdentifier.isEmpty ? .app : .thread(threadIdentifier)
        case .byApp: .app
        case .off: nil
        }
    }

    /// The stack the TUI and the HTML report draw a notification of `group` in: the group, except the app's own
    /// group under automatic grouping (the notifications without a `thread-id`), which they draw one by one so each
    /// stays in view; the result's `group` still says the phone puts them together.
    public static func drawnStack(_ group: NotificationGroup?, grouping: DeviceState.Grouping) -> NotificationGroup? {
        group == .app && grouping == .automatic ? nil : group
    }

    /// What the lock screen draws for its notifications by Settings › Notifications › Display As (iOS 16): a count
    /// ("3 Notifications") at the bottom, a stack with the newest on top, or the whole list.
    public static func lockScreenSentence(_ display: DeviceState.LockScreenDisplay, count: Int) -> String {
        switch display {
        case .count: "\(count) Notification\(count == 1 ? "" : "s")"
        case .stack: "a stack, the newest on top"
        case .list: "each notification in full"
        }
    }
}
