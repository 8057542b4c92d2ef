import Foundation

/// How the inbox names a conversation, shared by the app and its notification service extension.
public enum InboxStyle {
    /// "in #design" for a channel message, nil for a direct one.
    public static func subtitle(channel: String?) -> String? {
        guard let channel, !channel.isEmpty else { return nil }
        return "in #" + Channel.normalized(channel)
    }
}
