import Foundation

/// Slack-style shortcodes the app's composer inserts, and the emoji they stand for.
public enum Shortcodes {
    public static let table = [":wave:": "👋", ":tada:": "🎉", ":pizza:": "🍕", ":heart:": "❤️"]

    public static func replacing(in text: String) -> String {
        table.reduce(text) { result, entry in result.replacingOccurrences(of: entry.key, with: entry.value) }
    }
}
