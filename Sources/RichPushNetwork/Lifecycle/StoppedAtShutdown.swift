public import ServiceLifecycle

/// A long-lived part of a program, as a service of its `ServiceGroup`: it has nothing to do while the program runs
/// and one thing to do when the group shuts down, ``shutdown()``. Conforming types get their `run()` from here.
public protocol StoppedAtShutdown: Service {
    func shutdown() async

    /// Whether the group's shutdown waits for ``shutdown()``; true unless a type says otherwise. HTTP clients say
    /// false: async-http-client's shutdown waits for a connection attempt in flight, up to a whole timeout when a
    /// server never answers, and the clients hold nothing to clean up, so a program ends with their shutdown under
    /// way (Ctrl-C on a replay waiting for such a server took 4.5 s, on a push 4.8 s).
    static var shutdownHoldsUpTheGroup: Bool { get }
}

extension StoppedAtShutdown {
    public static var shutdownHoldsUpTheGroup: Bool { true }

    public func run() async {
        // Thrown when the group is cancelled instead of shut down gracefully: the part stops all the same.
        try? await gracefulShutdown()
        if Self.shutdownHoldsUpTheGroup {
            await shutdown()
        } else {
            Task.detached { await self.shutdown() }
        }
    }
}
