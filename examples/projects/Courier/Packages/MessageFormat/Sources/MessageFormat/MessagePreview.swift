import Emoji
import MessageCore

/// A message as the notification previews it: shortcodes as emoji, at most 80 characters.
public struct MessagePreview {
    public static let limit = 80
    public let text: String

    public init(_ message: String) {
        text = truncated(Shortcodes.replacing(in: message), to: Self.limit)
    }
}
