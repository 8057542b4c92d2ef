import Synchronization

/// Whether the HTTP answer to a push has been written to its sender. A push's result is reported (printed,
/// counted by `serve --count`) only once both its delivery has ended and its answer is written, so a server that
/// stops after the N-th result never closes a connection on an answer still to be written.
///
/// Returning a `Response` from a responder is not writing it: Hummingbird writes it afterwards. The push server's
/// connections (``PushServerChannel``) run each request's responder with a token as ``current`` and signal it
/// once the response has been written, or the writing failed.
final class ResponseWritten: Sendable {
    /// The token of the request being answered on the current task (see ``answering()``); nil outside a push
    /// server's connection.
    static var current: ResponseWritten? {
        withUnsafeCurrentTask { task in task.flatMap { task in answered.withLock { $0[task.hashValue] } } }
    }

    /// The tokens of the requests being answered, by the task answering each (its hash: a task is not Sendable).
    /// A task-local value would need a closure around the responder, which cannot capture the response writer it
    /// consumes.
    private static let answered = Mutex<[Int: ResponseWritten]>([:])

    private struct State {
        var written = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    /// The answer is out (or will never be).
    func signal() {
        let waiters = state.withLock { state in
            state.written = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once the answer is out.
    func wait() async {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state in
                if !state.written { state.waiters.append(continuation) }
                return state.written
            }
            if ready { continuation.resume() }
        }
    }

    /// A new token for the request the current task is about to answer, as ``current`` until ``finish()``.
    static func answering() -> ResponseWritten {
        let token = ResponseWritten()
        withUnsafeCurrentTask { task in
            if let task { answered.withLock { $0[task.hashValue] = token } }
        }
        return token
    }

    /// The request is answered: the token is no longer ``current``, and signalled.
    func finish() {
        withUnsafeCurrentTask { task in
            if let task { Self.answered.withLock { $0[task.hashValue] = nil } }
        }
        signal()
    }
}
