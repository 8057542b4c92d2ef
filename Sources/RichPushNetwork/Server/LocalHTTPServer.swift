public import Hummingbird
public import HummingbirdCore
public import Logging
import NIOCore
import ServiceLifecycle

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How both of richpush's servers (the fixture CDN and the push server) run: a Hummingbird application in a
/// `ServiceGroup` of its own, started so that ``start(responder:server:host:port:name:grace:logger:)`` returns only
/// once the port accepts connections (or throws the bind error in the system's words), and stopped by
/// ``shutdown()``: no new connections, requests in flight may finish within the grace, then whatever still runs is
/// cancelled (the group's `maximumGracefulShutdownDuration`).
///
/// The server handles no signals: the command that runs it owns them and calls ``shutdown()``.
public final class LocalHTTPServer: Sendable {
    /// The port the server really listens on (the one asked for, or the one the system picked for 0).
    public let port: Int
    private let group: ServiceGroup
    private let task: Task<Void, any Error>

    private init(port: Int, group: ServiceGroup, task: Task<Void, any Error>) {
        self.port = port
        self.group = group
        self.task = task
    }

    /// Binds `host:port` and returns once the server accepts connections.
    public static func start<Responder: HTTPResponder>(
        responder: Responder, server: HTTPServerBuilder, host: String, port: Int, name: String, grace: Duration,
        logger: Logger
    ) async throws(LocalHTTPServerError) -> LocalHTTPServer
    where Responder.Context: InitializableFromSource<ApplicationRequestContextSource> {
        let (ready, readyContinuation) = AsyncStream<Int>.makeStream()
        let app = Application(
            responder: responder, server: server,
            configuration: .init(address: .hostname(host, port: port), serverName: name),
            onServerRunning: { channel in
                readyContinuation.yield(channel.localAddress?.port ?? port)
                readyContinuation.finish()
            },
            logger: logger)
        var configuration = ServiceGroupConfiguration(
            services: [.init(service: app)], gracefulShutdownSignals: [], cancellationSignals: [], logger: logger)
        configuration.maximumGracefulShutdownDuration = grace
        let group = ServiceGroup(configuration: configuration)
        let task = Task<Void, any Error> {
            defer { readyContinuation.finish() }
            try await group.run()
        }
        // A start that is cancelled (a stop signal while the command starts) stops the server it began: waiting
        // for readiness ends at once, and the server's task must not be left running for its result to be awaited.
        var iterator = ready.makeAsyncIterator()
        let boundPort = await withTaskCancellationHandler {
            await iterator.next()
        } onCancel: {
            task.cancel()
        }
        guard let boundPort, !Task.isCancelled else {
            task.cancel()
            let result = await task.result
            if Task.isCancelled { throw LocalHTTPServerError("the start was cancelled") }
            // The server stopped before it was ready: its error, in the system's words ("Address already in
            // use"), not NIO's call site.
            switch result {
            case .failure(let error as IOError):
                throw LocalHTTPServerError(String(cString: strerror(error.errnoCode)))
            case .failure(let error):
                throw LocalHTTPServerError("\(error)")
            case .success:
                throw LocalHTTPServerError("the server stopped before it was ready")
            }
        }
        return LocalHTTPServer(port: boundPort, group: group, task: task)
    }

    /// Stops accepting, lets requests in flight finish within the grace given at the start, cancels the rest and
    /// returns when the server has stopped.
    public func shutdown() async {
        await group.triggerGracefulShutdown()
        _ = await task.result
    }
}

/// A server could not start: the sentence says why ("Address already in use").
public struct LocalHTTPServerError: Error, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
