import Foundation

/// The name of a recording: when it arrived and which push it was, `2026-11-26T06-12-03Z-<apns-id>`. Nothing the
/// sender wrote reaches a name unchecked: the id is the `apns-id` the endpoint answered with (a UUID, which the
/// validator checked, or one it made) or an FCM message id richpush made, and only letters, digits and `-` of it
/// are kept, so no `/`, `..` or control character can lead out of the folder.
public enum RecordingName {
    /// The longest id part kept.
    static let maxIDLength = 64

    public static func base(at date: Date, id: String) -> String {
        "\(stamp(date))-\(sanitized(id))"
    }

    /// UTC, with `-` for `:` (a colon is not allowed in file names on every system the corpus may be copied to).
    public static func stamp(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func two(_ value: Int?) -> String {
            let value = value ?? 0
            return value < 10 ? "0\(value)" : "\(value)"
        }
        return
            "\(parts.year ?? 1970)-\(two(parts.month))-\(two(parts.day))T\(two(parts.hour))-\(two(parts.minute))-\(two(parts.second))Z"
    }

    /// ISO 8601 in UTC, for `given.recorded.at`.
    public static func isoTime(_ date: Date) -> String {
        let stamp = stamp(date)
        let (day, time) = (stamp.prefix(10), stamp.dropFirst(11).dropLast())
        return "\(day)T\(time.replacingOccurrences(of: "-", with: ":"))Z"
    }

    /// Lower-case letters, digits and `-`; anything else becomes `-`, runs of `-` are one, and an id left
    /// empty is `push`.
    static func sanitized(_ id: String) -> String {
        var kept = ""
        for scalar in id.lowercased().unicodeScalars.prefix(maxIDLength) {
            let ok = (scalar >= "a" && scalar <= "z") || (scalar >= "0" && scalar <= "9")
            if ok {
                kept.unicodeScalars.append(scalar)
            } else if !kept.hasSuffix("-") {
                kept += "-"
            }
        }
        let trimmed = kept.trimmingCharacters(in: CharacterSet(charactersIn: "-"))
        return trimmed.isEmpty ? "push" : trimmed
    }

    /// The name to try after `attempt` collisions: the base, then `base-2`, `base-3`, ….
    public static func candidate(_ base: String, attempt: Int) -> String {
        attempt == 0 ? base : "\(base)-\(attempt + 1)"
    }
}
