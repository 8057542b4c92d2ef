import Foundation

/// The app and its extension group a conversation's notifications by the same thread identifier.
public enum ThreadNames {
    public static let appGroup = "group.com.example.courier"

    /// `chat-u42` for a one-to-one conversation with u42.
    public static func identifier(for sender: Sender) -> String { "chat-" + sender.id }
}
