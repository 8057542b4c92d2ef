import RichPushCore

/// The one-line prompt a text-input button (`UNTextInputNotificationAction`) opens: what the person types, sent with
/// the button's title on Enter, dropped on Esc.
struct TextPrompt: Equatable, Sendable {
    /// The notification answered and the button tapped.
    var notificationID: Int
    var action: PresentedAction
    /// What was typed so far: printable characters only, at most ``maxLength``.
    var text = ""

    /// As long as a reply a person types into a notification; longer input is not taken.
    static let maxLength = 200

    var placeholder: String { action.textInput?.placeholder ?? "" }
    var buttonTitle: String { action.textInput?.buttonTitle ?? action.title }

    /// Adds a typed character when it is printable and there is room; says whether it was taken.
    @discardableResult
    mutating func type(_ character: Character) -> Bool {
        guard text.count < Self.maxLength, Self.isPrintable(character) else { return false }
        text.append(character)
        return true
    }

    mutating func deleteBackward() {
        if !text.isEmpty { text.removeLast() }
    }

    /// The text sent: on one line, without control or invisible directional characters.
    var sentText: String { TextSanitizer.singleLine(text, limit: Self.maxLength) }

    static func isPrintable(_ character: Character) -> Bool {
        character.unicodeScalars.allSatisfy { scalar in
            let value = scalar.value
            return value >= 0x20 && !(0x7F..<0xA0).contains(value) && !TextSanitizer.isInvisibleDirectional(value)
                && value != 0x2028 && value != 0x2029
        }
    }
}
