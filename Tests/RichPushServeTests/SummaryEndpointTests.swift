import Foundation
import NIOHTTP1
import RichPushCore
import RichPushServe
import RichPushServeTestSupport
import Synchronization
import Testing

@Suite("serve: the Scheduled Summary at /richpush/v1/summary", .serialized)
struct SummaryEndpointTests {
    static var summaryPhone: DeviceState {
        var phone = DeviceState.newPhone
        phone.summary = true
        phone.capabilities = [.timeSensitive]
        return phone
    }

    /// An `apns-id` (a UUID, as APNs requires) named by its last letter.
    static func apnsID(_ letter: String) -> String { "5f1c2d3e-4a5b-4c6d-8e7f-00000000000" + letter }

    static func push(_ harness: ServeHarness, id letter: String, title: String, level: String, score: Double?)
        async throws
    {
        let relevance = score.map { #","relevance-score":\#($0)"# } ?? ""
        let payload =
            #"{"aps":{"alert":{"title":"\#(title)","body":"b"},"interruption-level":"\#(level)"\#(relevance)}}"#
        #expect(try await harness.push(payload: payload) { $0["apns-id"] = apnsID(letter) }.status == 200)
        _ = await harness.nextResult()
    }

    @Test(
        "what waits is listed by relevance; POST delivers it with the highest featured, a time-sensitive push never waits"
    )
    func heldThenDelivered() async throws {
        try await withServer(device: Self.summaryPhone) { harness in
            try await Self.push(harness, id: "a", title: "Low", level: "active", score: 0.2)
            try await Self.push(harness, id: "b", title: "Urgent", level: "time-sensitive", score: 1)
            try await Self.push(harness, id: "c", title: "High", level: "passive", score: 0.9)
            try await Self.push(harness, id: "d", title: "None", level: "active", score: nil)

            let before = try #require(try await harness.send(.GET, "/richpush/v1/summary").json)
            let waiting = before["waiting"]?.arrayValue?.compactMap { $0["notification"]?.stringValue }
            #expect(waiting == ["c", "a", "d"].map(Self.apnsID))
            #expect(before["schedule"] == .null)

            let delivered = try await harness.send(.POST, "/richpush/v1/summary")
            #expect(delivered.status == 200)
            #expect(delivered.json?["delivered"]?["featured"]?.stringValue == Self.apnsID("c"))
            #expect(delivered.json?["delivered"]?["trigger"]?.stringValue == "request")
            #expect(delivered.json?["delivered"]?["notifications"]?.arrayValue?.first?["title"]?.stringValue == "High")

            let empty = try await harness.send(.POST, "/richpush/v1/summary")
            #expect(empty.json?["delivered"] == .null)
            let after = try #require(try await harness.send(.GET, "/richpush/v1/summary").json)
            #expect(after["waiting"]?.arrayValue?.isEmpty == true)
            #expect(after["delivered"]?.arrayValue?.count == 1)
            #expect(try await harness.send(.DELETE, "/richpush/v1/summary").status == 204)
            #expect(
                try await harness.send(.GET, "/richpush/v1/summary").json?["delivered"]?.arrayValue?.isEmpty == true)
            #expect(try await harness.send(.PUT, "/richpush/v1/summary").status == 405)
        }
    }

    @Test("with a schedule the summary comes by itself at its time, and GET names the schedule and the next time")
    func deliveredAtItsTime() async throws {
        try await withServer(device: Self.summaryPhone, summarySchedule: .iOSSetup) { harness in
            try await Self.push(harness, id: "x", title: "Later", level: "active", score: 0.5)
            let listing = try #require(try await harness.send(.GET, "/richpush/v1/summary").json)
            #expect(listing["schedule"] == ["08:00", "18:00"])
            let next = try #require(listing["next"]?.stringValue.flatMap { ISO8601DateFormatter().date(from: $0) })
            // The longest wait between 08:00 and 18:00 is the night's, 14 hours (a run at 18:14 waits for 08:00).
            #expect(next > Date() && next < Date().addingTimeInterval(14 * 60 * 60 + 1))
            #expect([8, 18].contains(Calendar.current.component(.hour, from: next)))

            // A time two seconds from now, on the phone's clock.
            let soon = Calendar.current.dateComponents([.hour, .minute, .second], from: Date().addingTimeInterval(2))
            let schedule = try #require(
                SummaryTime(hour: soon.hour!, minute: soon.minute!, second: soon.second!).flatMap {
                    SummarySchedule([$0])
                })
            let (deliveries, delivered) = AsyncStream.makeStream(of: SummaryStore.Delivered.self)
            let scheduler = SummaryScheduler(store: harness.server.summaries, schedule: schedule) {
                delivered.yield($0)
            }
            let running = Task { try await scheduler.run() }
            let deadline = Task {
                try await Task.sleep(for: .seconds(15))
                delivered.finish()
            }
            defer {
                running.cancel()
                deadline.cancel()
            }
            var iterator = deliveries.makeAsyncIterator()
            let summary = try #require(await iterator.next())
            #expect(summary.count == 1 && summary.featuredTitle == "Later")
            let after = try #require(try await harness.send(.GET, "/richpush/v1/summary").json)
            #expect(after["delivered"]?.arrayValue?.first?["trigger"]?.stringValue == "schedule")
            #expect(after["waiting"]?.arrayValue?.isEmpty == true)
        }
    }
}
