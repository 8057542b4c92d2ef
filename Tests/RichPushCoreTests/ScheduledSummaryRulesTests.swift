import Foundation
import RichPushCore
import Testing

@Suite("The Scheduled Summary's order and schedule")
struct ScheduledSummaryRulesTests {
    @Test("highest relevance first, no score counts as 0, ties in arrival order")
    func order() {
        let items: [(String, Double?)] = [("a", 0.2), ("b", nil), ("c", 0.9), ("d", 0.2), ("e", 0)]
        let ordered = ScheduledSummaryRules.ordered(items) { $0.1 }.map(\.0)
        #expect(ordered == ["c", "a", "d", "b", "e"])
    }

    @Test("times read as HH:MM or HH:MM:SS; anything else is named")
    func times() throws {
        #expect(try SummarySchedule.parse("18:00, 08:00,18:00").get().description == "08:00,18:00")
        #expect(try SummarySchedule.parse("07:30:15").get().times.first?.second == 15)
        for bad in ["8:00", "24:00", "08:60", "", "08:00,", "eight", "08:00:00:00", "０８:００"] {
            guard case .failure(let error) = SummarySchedule.parse(bad) else {
                Issue.record("\(bad) was read as a time")
                continue
            }
            #expect(error.message.contains("HH:MM"))
        }
    }

    @Test("the next delivery is the first time after now, the next day's first after the last")
    func next() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "Europe/Berlin"))
        let schedule = SummarySchedule.iOSSetup
        func at(_ day: Int, _ hour: Int, _ minute: Int) -> Date {
            calendar.date(from: DateComponents(year: 2026, month: 3, day: day, hour: hour, minute: minute))!
        }
        #expect(schedule.next(after: at(10, 7, 59), calendar: calendar) == at(10, 8, 0))
        #expect(schedule.next(after: at(10, 8, 0), calendar: calendar) == at(10, 18, 0))
        #expect(schedule.next(after: at(10, 18, 30), calendar: calendar) == at(11, 8, 0))
        // 29 March 2026: Berlin's clocks go from 02:00 to 03:00; a 02:30 summary comes at the first time that exists.
        let night = try #require(SummaryTime("02:30").flatMap { SummarySchedule([$0]) })
        let moved = night.next(after: at(29, 0, 0), calendar: calendar)
        #expect(moved > at(29, 0, 0) && moved <= at(29, 3, 30))
    }
}
