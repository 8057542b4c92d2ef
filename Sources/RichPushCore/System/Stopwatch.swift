/// Seconds since a start instant, on an injected clock.
struct Stopwatch: Sendable {
    private let read: @Sendable () -> Double

    init(clock: any Clock<Duration>) {
        read = Self.start(clock)
    }

    private static func start<C: Clock<Duration>>(_ clock: C) -> @Sendable () -> Double {
        let start = clock.now
        return { start.duration(to: clock.now).seconds }
    }

    var elapsed: Double { read() }
}

extension Duration {
    /// The duration in seconds as a floating-point number.
    public var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
