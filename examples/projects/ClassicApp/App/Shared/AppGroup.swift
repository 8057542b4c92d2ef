import Foundation

/// The App Group the app shares with its notification service extension: the extension records the title of the
/// last notification it handled there, and the app shows it.
enum AppGroup {
    static let identifier = "group.com.example.classicapp"

    /// Where the extension writes the last notification's title.
    static var lastNotificationFile: URL? {
        FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: identifier)?
            .appendingPathComponent("last-notification.txt")
    }

    /// A notification's title as the inbox shows it: the sender's name first, when the payload has one.
    static func displayTitle(sender: String?, title: String) -> String {
        guard let sender, !sender.isEmpty else { return title }
        return "\(sender): \(title)"
    }
}
