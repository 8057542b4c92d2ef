import RichPushNetwork
import Synchronization
import Testing

@Suite("Local HTTPS server start")
struct LocalHTTPServerTests {
    /// A stop signal that comes while a command starts cancels the start. The server it began must stop too, and
    /// the start must end: it used to wait for the still-running server's result, so `replay` or `serve` sent
    /// SIGTERM in their first milliseconds hung for good.
    @Test("a cancelled start ends at once and leaves nothing listening on its port")
    func cancelledStart() async throws {
        // The port of a server that starts and stops normally, so the cancelled start binds a known port.
        let probe = try await FixtureCDN.start(root: fixturesRoot, logger: quietLogger)
        let port = probe.port
        await probe.shutdown()

        let cancelled = Task { () async throws -> FixtureCDN in
            withUnsafeCurrentTask { $0?.cancel() }
            return try await FixtureCDN.start(root: fixturesRoot, port: port, logger: quietLogger)
        }
        // Waited for from a task of its own, so that a start that never ends fails the test instead of hanging it.
        let outcome = Outcome()
        Task { outcome.set(await cancelled.result) }
        let deadline = ContinuousClock.now + .seconds(20)
        while outcome.get() == nil, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        let result = outcome.get()
        let ended = result != nil
        #expect(ended, "a start cancelled before the server was ready was still waiting after 20 s")
        guard ended else { return }
        if case .success(let cdn) = result {
            Issue.record("a cancelled start gave a server on port \(cdn.port)")
            await cdn.shutdown()
        }

        // The port is free again: the server the cancelled start began was stopped.
        let again = try await FixtureCDN.start(root: fixturesRoot, port: port, logger: quietLogger)
        #expect(again.port == port)
        await again.shutdown()
    }
}

private final class Outcome: Sendable {
    private let result = Mutex<Result<FixtureCDN, any Error>?>(nil)
    func set(_ value: Result<FixtureCDN, any Error>) { result.withLock { $0 = value } }
    func get() -> Result<FixtureCDN, any Error>? { result.withLock { $0 } }
}
