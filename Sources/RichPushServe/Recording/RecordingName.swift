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
        let time = UTCTime(date)
        return "\(time.day)T\(time.hour)-\(time.minute)-\(time.second)Z"
    }

    /// ISO 8601 in UTC, for `given.recorded.at`.
    public static func isoTime(_ date: Date) -> String {
        let time = UTCTime(date)
        return "\(time.day)T\(time.hour):\(time.minute):\(time.second)Z"
    }

    /// Lower-case letters, digits and `-`; anything else becomes `-`, runs of `-` are one, and an id left
    /// empty is `push`.
    static func sanitized(_ id: String) -> String {
        var kept: [UInt8] = []
        kept.reserveCapacity(min(id.utf8.count, maxIDLength))
        for byte in id.utf8.prefix(maxIDLength) {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): kept.append(byte)
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): kept.append(byte + 0x20)
            default: if kept.last != UInt8(ascii: "-") { kept.append(UInt8(ascii: "-")) }
            }
        }
        while kept.last == UInt8(ascii: "-") { kept.removeLast() }
        while kept.first == UInt8(ascii: "-") { kept.removeFirst() }
        return kept.isEmpty ? "push" : String(decoding: kept, as: UTF8.self)
    }

    /// The name to try after `attempt` collisions: the base, then `base-2`, `base-3`, ….
    public static func candidate(_ base: String, attempt: Int) -> String {
        attempt == 0 ? base : "\(base)-\(attempt + 1)"
    }

    /// A time's UTC date and clock, two digits each, by arithmetic (no Calendar: it runs for every push recorded).
    struct UTCTime {
        var day: String
        var hour: String
        var minute: String
        var second: String

        init(_ date: Date) {
            let seconds = Int((date.timeIntervalSince1970).rounded(.down))
            let (days, clock) = seconds.quotientAndRemainder(dividingBy: 86_400)
            let (dayNumber, secondOfDay) = clock < 0 ? (days - 1, clock + 86_400) : (days, clock)
            // Howard Hinnant's civil_from_days: the proleptic Gregorian date of a day counted from 1970-01-01.
            let z = dayNumber + 719_468
            let era = (z >= 0 ? z : z - 146_096) / 146_097
            let dayOfEra = z - era * 146_097
            let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
            let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
            let monthIndex = (5 * dayOfYear + 2) / 153
            let dayOfMonth = dayOfYear - (153 * monthIndex + 2) / 5 + 1
            let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
            let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
            func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
            let yearText = String(year)
            day =
                "\(String(repeating: "0", count: max(0, 4 - yearText.count)))\(yearText)-\(two(month))-\(two(dayOfMonth))"
            hour = two(secondOfDay / 3600)
            minute = two(secondOfDay % 3600 / 60)
            second = two(secondOfDay % 60)
        }
    }
}
