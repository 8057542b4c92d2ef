public import Foundation
public import RichPushCore
import Synchronization

/// `serve`'s Scheduled Summary: the notifications the phone held for it (`presentation.delivery`
/// `scheduledSummary`) wait here until it is delivered, at a time of the schedule (`--summary-at`) or on
/// `POST /richpush/v1/summary`, in ``ScheduledSummaryRules``' order with the highest relevance featured.
/// `GET /richpush/v1/summary` shows what waits, when the next one comes, and the summaries delivered so far.
/// The newest `capacity` waiting notifications and delivered summaries are kept; older ones are dropped and counted.
public final class SummaryStore: Sendable {
    /// A notification in a summary: what identifies it and what it showed.
    struct Member: Sendable {
        var notification: String
        var file: String
        var title: String
        var relevanceScore: Double?
        var arrivedAt: Date

        var jsonValue: JSONValue {
            [
                "notification": .string(notification), "file": .string(file), "title": .string(title),
                "relevanceScore": relevanceScore.map { .number($0) } ?? .null,
                "arrivedAt": .string(arrivedAt.formatted(.iso8601)),
            ]
        }
    }

    /// A summary as the phone delivered it.
    public struct Delivered: Sendable {
        public var at: Date
        /// `schedule` (a time of `--summary-at`) or `request` (`POST /richpush/v1/summary`).
        public var trigger: String
        var members: [Member]

        public var count: Int { members.count }
        /// The featured notification's title (the highest relevance).
        public var featuredTitle: String? { members.first?.title }

        public var jsonValue: JSONValue {
            [
                "deliveredAt": .string(at.formatted(.iso8601)), "trigger": .string(trigger),
                "featured": members.first.map { .string($0.notification) } ?? .null,
                "notifications": .array(members.map(\.jsonValue)),
            ]
        }
    }

    private struct State {
        var waiting: [Member] = []
        var delivered: [Delivered] = []
        var droppedWaiting = 0
        var droppedDelivered = 0
    }

    public let capacity: Int
    /// When summaries are delivered by themselves; nil when only a request delivers them.
    public let schedule: SummarySchedule?
    private let state = Mutex(State())

    public init(capacity: Int = ReceiptStore.defaultCapacity, schedule: SummarySchedule? = nil) {
        precondition(capacity > 0)
        self.capacity = capacity
        self.schedule = schedule
    }

    /// Keeps `result` for the next summary when the phone held it for one; anything else is not the summary's.
    public func hold(_ result: DeliveryResult, at date: Date = Date()) {
        guard result.presentation?.delivery?.kind == .scheduledSummary else { return }
        let member = Member(
            notification: result.apns?.id ?? "", file: result.file, title: ScheduledSummaryRules.label(of: result),
            relevanceScore: ScheduledSummaryRules.relevance(of: result), arrivedAt: date)
        state.withLock { state in
            state.waiting.append(member)
            if state.waiting.count > capacity {
                let extra = state.waiting.count - capacity
                state.waiting.removeFirst(extra)
                state.droppedWaiting += extra
            }
        }
    }

    /// Delivers what waits, at `date`; nil (and nothing kept) when nothing waits, as the phone shows no empty summary.
    @discardableResult
    public func deliver(at date: Date = Date(), trigger: String) -> Delivered? {
        state.withLock { state in
            guard !state.waiting.isEmpty else { return nil }
            let summary = Delivered(
                at: date, trigger: trigger,
                members: ScheduledSummaryRules.ordered(state.waiting, relevance: \.relevanceScore))
            state.waiting = []
            state.delivered.append(summary)
            if state.delivered.count > capacity {
                let extra = state.delivered.count - capacity
                state.delivered.removeFirst(extra)
                state.droppedDelivered += extra
            }
            return summary
        }
    }

    /// What `GET /richpush/v1/summary` answers; `now` decides the next scheduled delivery.
    public func snapshot(now: Date = Date()) -> JSONValue {
        state.withLock { state in
            [
                "schedule": schedule.map { .array($0.times.map { .string($0.description) }) } ?? .null,
                "next": schedule.map { .string($0.next(after: now).formatted(.iso8601)) } ?? .null,
                "waiting": .array(
                    ScheduledSummaryRules.ordered(state.waiting, relevance: \.relevanceScore).map(\.jsonValue)),
                "delivered": .array(state.delivered.map(\.jsonValue)),
                "capacity": .number(Double(capacity)),
                "dropped": [
                    "waiting": .number(Double(state.droppedWaiting)),
                    "delivered": .number(Double(state.droppedDelivered)),
                ],
            ]
        }
    }

    /// Forgets the delivered summaries (what waits stays for the next one).
    public func removeDelivered() {
        state.withLock { state in
            state.delivered = []
            state.droppedDelivered = 0
        }
    }
}
