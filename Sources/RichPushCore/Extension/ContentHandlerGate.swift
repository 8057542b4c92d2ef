import Synchronization

/// The blueprint's completion flag: the content handler runs exactly once, whoever calls first.
public final class ContentHandlerGate: Sendable {
    private let completed = Atomic<Bool>(false)

    public init() {}

    /// True for the first caller only.
    public func claim() -> Bool {
        completed.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing)
            .exchanged
    }

    public var isCompleted: Bool { completed.load(ordering: .acquiring) }
}
