import Synchronization

/// A quit asked for by a signal, seen by the run loop before it handles its next event: a signal must not wait
/// behind a backlog of queued events (a burst of pushes from the network) to end the notification center.
final class QuitRequest: Sendable {
    private let requested = Atomic<Bool>(false)

    func request() { requested.store(true, ordering: .sequentiallyConsistent) }

    var isRequested: Bool { requested.load(ordering: .sequentiallyConsistent) }
}
