import Synchronization

/// Who is told about the requests arriving on which connections: a team's extension reaches the fixture CDN
/// through richpush's proxy, which registers the port its tunnel connects from, so each request the CDN answers
/// on that connection lands in that notification's timeline.
public final class FixtureRequestLog: Sendable {
    public typealias Observer = @Sendable (String) -> Void

    private let observers = Mutex<[Int: Observer]>([:])

    public init() {}

    /// Tells `observer` about each request on the connection from local port `port` until ``forget(port:)``.
    public func observe(port: Int, _ observer: @escaping Observer) {
        observers.withLock { $0[port] = observer }
    }

    public func forget(port: Int) {
        _ = observers.withLock { $0.removeValue(forKey: port) }
    }

    /// Passes one answered request on ("GET https://fixtures.richpush.test/cat.png → 200, 1234 bytes, 0.004 s") to
    /// the observer of the connection from `port`, if there is one.
    func record(port: Int?, _ line: () -> String) {
        guard let port, let observer = observers.withLock({ $0[port] }) else { return }
        observer(line())
    }
}
