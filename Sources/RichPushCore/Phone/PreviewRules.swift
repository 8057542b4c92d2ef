/// Show Previews: where the phone hides a notification's text, and what it shows instead.
///
/// With previews hidden, iOS shows the category's `hiddenPreviewsBodyPlaceholder` in place of the body (`%u` is the
/// number of notifications in the thread), or a placeholder of its own when the category gives none; it keeps the
/// title or the subtitle only when the category's options say so
/// (https://developer.apple.com/documentation/usernotifications/unnotificationcategory/hiddenpreviewsbodyplaceholder,
/// https://developer.apple.com/documentation/usernotifications/unnotificationcategoryoptions/hiddenpreviewsshowtitle).
/// Apple does not document the system's own placeholder's words; richpush writes "Notification".
public enum PreviewRules {
    /// The body iOS shows when the category has no placeholder (approximate wording).
    public static let systemPlaceholder = "Notification"

    /// The views whose text is hidden: "Never" hides it on the lock screen and in banners, "When Unlocked" on the
    /// lock screen of a locked phone. The expanded view needs the phone unlocked, and shows it.
    public static func hidden(device: DeviceState) -> Set<NotificationView> {
        switch device.previews {
        case .always: []
        case .whenUnlocked: device.locked ? [.lockScreen] : []
        case .never: [.lockScreen, .banner]
        }
    }

    /// Why, in the words of the setting.
    public static func reason(device: DeviceState) -> String {
        device.previews == .never
            ? "Show Previews is Never"
            : "Show Previews is When Unlocked and the phone is locked"
    }

    /// What a view that hides the text shows instead.
    public static func placeholder(
        for content: NotificationContent, category: NotificationCategory?, threadCount: Int
    ) -> NotificationContent {
        let options = category?.options ?? []
        let body =
            category?.hiddenPreviewsBodyPlaceholder.flatMap { $0.isEmpty ? nil : $0 }
            .map { $0.split(separator: "%u", omittingEmptySubsequences: false).joined(separator: String(threadCount)) }
            ?? systemPlaceholder
        return NotificationContent(
            title: options.contains(.hiddenPreviewsShowTitle) ? content.title : "",
            subtitle: options.contains(.hiddenPreviewsShowSubtitle) ? content.subtitle : "", body: body)
    }
}
