import Dispatch
import Foundation
import Glibc
import Synchronization

/// Tells the run loop when keys are waiting, without ever calling curses: a thread blocks in poll(2)
/// on standard input, so no task of the concurrency runtime blocks on the keyboard. After each report
/// it waits until the run loop has read the keys, so one burst of typing is one wake-up.
final class InputWatcher: Sendable {
    private let continuation: AsyncStream<AppEvent>.Continuation
    private let stopped = Atomic<Bool>(false)
    private let drained = DispatchSemaphore(value: 0)

    init(continuation: AsyncStream<AppEvent>.Continuation) {
        self.continuation = continuation
    }

    func start() {
        let thread = Thread { [self] in watch() }
        thread.name = "richpush.tui.input"
        thread.start()
    }

    /// The run loop has read every waiting key.
    func inputDrained() {
        drained.signal()
    }

    func stop() {
        stopped.store(true, ordering: .relaxed)
        drained.signal()
    }

    private func watch() {
        while !stopped.load(ordering: .relaxed) {
            var descriptor = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, 200)
            if stopped.load(ordering: .relaxed) { return }
            if ready < 0 {
                if errno == EINTR { continue }
                continuation.yield(.inputClosed)
                return
            }
            if ready == 0 { continue }
            if descriptor.revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 {
                continuation.yield(.inputClosed)
                return
            }
            continuation.yield(.input)
            drained.wait()
        }
    }
}
