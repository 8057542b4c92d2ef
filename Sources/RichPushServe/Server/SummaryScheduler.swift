public import Foundation
public import RichPushCore
public import ServiceLifecycle

/// Delivers `serve`'s Scheduled Summary at each time of its schedule (`--summary-at`), as the phone does; between
/// two it sleeps, which costs nothing. It stops when the command shuts down.
public struct SummaryScheduler: Service {
    let store: SummaryStore
    let schedule: SummarySchedule
    let calendar: Calendar
    let onDelivered: @Sendable (SummaryStore.Delivered) -> Void

    public init(
        store: SummaryStore, schedule: SummarySchedule, calendar: Calendar = .current,
        onDelivered: @escaping @Sendable (SummaryStore.Delivered) -> Void
    ) {
        self.store = store
        self.schedule = schedule
        self.calendar = calendar
        self.onDelivered = onDelivered
    }

    public func run() async throws {
        try? await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                let now = Date()
                let next = schedule.next(after: now, calendar: calendar)
                try await Task.sleep(for: .seconds(next.timeIntervalSince(now)))
                if let summary = store.deliver(at: Date(), trigger: "schedule") { onDelivered(summary) }
            }
        }
    }
}
