import Logging
import Synchronization

/// Collects one notification's timeline from the actors and network callbacks that feed it,
/// and passes each step on to the logger and to a live observer.
final class Timeline: Sendable {
    private let events = Mutex<[TimelineEvent]>([])
    private let stopwatch: Stopwatch
    private let logger: Logger
    private let observer: (@Sendable (DeliveryProgress) -> Void)?

    init(
        clock: any Clock<Duration>, logger: Logger, observer: (@Sendable (DeliveryProgress) -> Void)?
    ) {
        self.stopwatch = Stopwatch(clock: clock)
        self.logger = logger
        self.observer = observer
    }

    var elapsed: Double { stopwatch.elapsed }

    var snapshot: [TimelineEvent] { events.withLock { $0 } }

    /// Stamps and appends a step in one locked turn, so the timeline is always in order, and passes it on
    /// to the observer in that same order.
    func record(_ kind: TimelineEvent.Kind, _ detail: String = "") {
        events.withLock { events in
            let event = TimelineEvent(at: stopwatch.elapsed, kind, detail)
            events.append(event)
            observer?(.event(event))
        }
        logger.debug(
            "\(kind.rawValue)", metadata: detail.isEmpty ? nil : ["detail": "\(detail)"])
    }

    /// Passes news that is not a timeline step (decoded text, byte counts) to the observer.
    func notify(_ progress: DeliveryProgress) {
        observer?(progress)
    }
}
