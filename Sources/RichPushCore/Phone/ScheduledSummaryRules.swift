import Foundation

/// The Scheduled Summary (iOS 15): the notifications of the apps a person put in it wait, and are delivered together
/// at the times they chose, ordered by relevance with the highest featured. Every front end (the TUI's summary, the
/// HTML report's card, `serve`'s `/richpush/v1/summary`) orders and schedules it here.
///
/// Sources: `UNNotificationContent.relevanceScore`, "the highest score is featured in the notification summary"
/// (https://developer.apple.com/documentation/usernotifications/unnotificationcontent/relevancescore); which
/// notifications wait is ``DeliveryRules``' (`presentation.delivery` `scheduledSummary`).
public enum ScheduledSummaryRules {
    /// The relevance a notification is summarised by: the content the extension delivered, else the payload's
    /// `relevance-score`; nil when neither has one (it then counts as 0, `relevanceScore`'s default).
    public static func relevance(of result: DeliveryResult) -> Double? {
        result.deliveredContent?.content.relevanceScore ?? result.relevanceScore
    }

    /// What a notification shows in the summary: the lock screen's title (previews applied), else its body, else the
    /// content's, else the file.
    public static func label(of result: DeliveryResult) -> String {
        let view = result.presentation?.view(.lockScreen)
        for text in [view?.title.full, view?.body.full, result.content.title, result.content.body] {
            if let text, !text.isEmpty { return text }
        }
        return result.file
    }

    /// `items` in the summary's order: the highest relevance first (none counts as 0), items of the same relevance
    /// in the order they arrived (their order in `items`). The first is the featured one.
    public static func ordered<Item>(_ items: [Item], relevance: (Item) -> Double?) -> [Item] {
        items.enumerated()
            .map { (offset: $0.offset, item: $0.element, score: relevance($0.element) ?? 0) }
            .sorted { $0.score != $1.score ? $0.score > $1.score : $0.offset < $1.offset }
            .map(\.item)
    }

    /// `items` in the summary's order, each summarised by its result's ``relevance(of:)``.
    public static func ordered<Item>(_ items: [Item], result: (Item) -> DeliveryResult?) -> [Item] {
        ordered(items) { result($0).flatMap(relevance(of:)) }
    }
}

/// A time of day a Scheduled Summary is delivered at, on the phone's clock.
public struct SummaryTime: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var hour: Int
    public var minute: Int
    public var second: Int

    public init?(hour: Int, minute: Int, second: Int = 0) {
        guard (0..<24).contains(hour), (0..<60).contains(minute), (0..<60).contains(second) else { return nil }
        self.hour = hour
        self.minute = minute
        self.second = second
    }

    /// `HH:MM` or `HH:MM:SS`, 24-hour.
    public init?(_ text: some StringProtocol) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(parts.count),
            parts.allSatisfy({ $0.count == 2 && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            let hour = Int(parts[0]), let minute = Int(parts[1])
        else { return nil }
        self.init(hour: hour, minute: minute, second: parts.count == 3 ? Int(parts[2]) ?? -1 : 0)
    }

    var secondOfDay: Int { (hour * 60 + minute) * 60 + second }

    public static func < (left: SummaryTime, right: SummaryTime) -> Bool { left.secondOfDay < right.secondOfDay }

    public var description: String {
        let clock = String(format: "%02d:%02d", hour, minute)
        return second == 0 ? clock : clock + String(format: ":%02d", second)
    }
}

/// When the Scheduled Summary is delivered: one or more times a day.
public struct SummarySchedule: Sendable, Equatable, CustomStringConvertible {
    /// The times, earliest first, without repeats; never empty.
    public let times: [SummaryTime]

    /// 08:00 and 18:00: the two summaries iOS's Scheduled Summary setup proposes. Apple's documentation does not
    /// state them (seen on the setup screen, as in third-party guides); a team sets its own with `--summary-at`.
    public static let iOSSetup = SummarySchedule(unchecked: [
        SummaryTime(hour: 8, minute: 0)!, SummaryTime(hour: 18, minute: 0)!,
    ])

    private init(unchecked times: [SummaryTime]) { self.times = times }

    /// A schedule of `times` (in any order, repeats dropped); nil when empty.
    public init?(_ times: [SummaryTime]) {
        guard !times.isEmpty else { return nil }
        self.times = Array(Set(times)).sorted()
    }

    /// Reads `08:00,12:30,18:00`; the error names the value that is not a time.
    public static func parse(_ text: String) -> Result<SummarySchedule, ScheduleError> {
        var times: [SummaryTime] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let trimmed = part.trimmingCharacters(in: .whitespaces)
            guard let time = SummaryTime(trimmed) else {
                return .failure(ScheduleError(value: TextSanitizer.singleLine(String(trimmed), limit: 40)))
            }
            times.append(time)
        }
        return SummarySchedule(times).map { .success($0) } ?? .failure(ScheduleError(value: ""))
    }

    /// A time the schedule could not read.
    public struct ScheduleError: Error, Sendable, Equatable {
        public var value: String
        public var message: String {
            "\"\(value)\" is not a time of day: give HH:MM or HH:MM:SS (24-hour), comma-separated, e.g. 08:00,18:00"
        }
    }

    /// The first delivery strictly after `date`, on `calendar`'s clock (the phone's time zone).
    public func next(after date: Date, calendar: Calendar = .current) -> Date {
        let start = calendar.startOfDay(for: date)
        for dayOffset in 0...2 {
            guard let day = calendar.date(byAdding: .day, value: dayOffset, to: start) else { continue }
            for time in times {
                let components = DateComponents(hour: time.hour, minute: time.minute, second: time.second)
                // Over a daylight-saving jump a missing time is taken as the next one that exists.
                if let candidate = calendar.date(
                    bySettingHour: components.hour!, minute: components.minute!, second: components.second!,
                    of: day, matchingPolicy: .nextTime), candidate > date
                {
                    return candidate
                }
            }
        }
        return date.addingTimeInterval(24 * 60 * 60)
    }

    public var description: String { times.map(\.description).joined(separator: ",") }
}
