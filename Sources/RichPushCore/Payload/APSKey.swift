/// A key Apple defines in the `aps` dictionary, and the JSON types its value may have. Apple ignores every other
/// key in `aps`, so a misspelt one changes nothing on the phone except what the author meant it to change.
public struct APSKey: Sendable, Equatable {
    /// A JSON type a key's value may have.
    public enum ValueType: Sendable, Equatable {
        case string, number, dictionary

        var name: String {
            switch self {
            case .string: "a string"
            case .number: "a number"
            case .dictionary: "a dictionary"
            }
        }
    }

    public var name: String
    public var types: [ValueType]

    init(_ name: String, _ types: ValueType...) {
        self.name = name
        self.types = types
    }

    /// Apple's keys, in the order of its table.
    ///
    /// Source: Apple, "Generating a remote notification" (UserNotifications), Table 1 "Keys to include in the aps
    /// dictionary", https://developer.apple.com/documentation/usernotifications/generating-a-remote-notification.
    /// The rows were read through copies of that table (Microsoft's `AppleApsNativeMessage`, which repeats Apple's
    /// wording key by key) and the value types of the older keys from Apple's archived "Payload Key Reference"
    /// (Table 9-1: alert "Dictionary or String", badge and content-available "Number", sound, category and thread-id
    /// "String"). `event` is not in the table (it says `events`): ActivityKit's Live Activity payloads write `event`,
    /// which was not confirmed in the pages read, and is kept so that it never draws a did-you-mean.
    public static let all: [APSKey] = [
        APSKey("alert", .string, .dictionary),
        APSKey("badge", .number),
        // A string names the sound; a dictionary is a critical alert's sound.
        APSKey("sound", .string, .dictionary),
        APSKey("thread-id", .string),
        APSKey("category", .string),
        APSKey("content-available", .number),
        APSKey("mutable-content", .number),
        APSKey("target-content-id", .string),
        APSKey("interruption-level", .string),
        APSKey("relevance-score", .number),
        APSKey("filter-criteria", .string),
        // Live Activities.
        APSKey("stale-date", .number),
        APSKey("content-state", .dictionary),
        APSKey("timestamp", .number),
        APSKey("events", .string),
        APSKey("event", .string),
        APSKey("dismissal-date", .number),
    ]

    private static let byName = Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0) })

    /// Apple's key of that exact name (keys are case-sensitive).
    public static func named(_ name: String) -> APSKey? { byName[name] }

    /// Whether `value` has a type Apple defines for this key.
    public func accepts(_ value: JSONValue) -> Bool {
        switch value {
        case .string: types.contains(.string)
        case .number: types.contains(.number)
        case .object: types.contains(.dictionary)
        case .null, .bool, .array: false
        }
    }

    /// "a number", "a string or a dictionary".
    public var expectedType: String { types.map(\.name).joined(separator: " or ") }

    /// The key Apple defines that `written`, a key Apple does not define, most likely meant: the same words with
    /// other separators or case (`mutable_content`, `mutableContent`, `Badge`), else the nearest within two edits
    /// (`mutable-contnet`, `thred-id`). Nil for one of Apple's keys, or when none is that near.
    public static func suggestion(for written: String) -> APSKey? {
        guard named(written) == nil else { return nil }
        let words = Self.words(of: written)
        if let same = byName[words] { return same }
        var best: (key: APSKey, distance: Int)?
        for key in all {
            let distance = EditDistance.between(Array(words), Array(key.name), limit: 2)
            if distance <= 2, distance < (best?.distance ?? .max) { best = (key, distance) }
        }
        return best?.key
    }

    /// The key's words, lowercased and joined with `-` as Apple writes them: `_`, spaces and dots become `-`, and a
    /// capital after a lowercase letter or digit starts a new word (`targetContentID` → `target-content-id`).
    static func words(of key: String) -> String {
        var result = ""
        var previous: Character?
        for character in key {
            if character == "_" || character == " " || character == "." || character == "-" {
                if !result.isEmpty, result.last != "-" { result.append("-") }
                previous = "-"
                continue
            }
            if character.isUppercase, let previous, previous.isLowercase || previous.isNumber, result.last != "-" {
                result.append("-")
            }
            result.append(contentsOf: character.lowercased())
            previous = character
        }
        return result
    }
}
