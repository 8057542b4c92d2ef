import Foundation
import Synchronization

/// What must be undone however richpush ends early: on a termination signal (``TerminationSignals``) or when
/// standard output can no longer be written (``StandardStreams``). Commands register their clean-ups (removing
/// downloaded attachments, a temporary CA file) and remove them once they did the work themselves.
///
/// Clean-ups run at most once each, in the order they were registered, on whichever thread ends the process.
/// They must be quick and synchronous: delete files, restore the terminal.
enum TerminationCleanup {
    private struct State {
        var nextID = 0
        var actions: [(id: Int, action: @Sendable () -> Void)] = []
    }

    private static let state = Mutex(State())

    /// Registers `action`; it runs if the process ends early, until the registration is removed.
    @discardableResult
    static func register(_ action: @escaping @Sendable () -> Void) -> Registration {
        let id = state.withLock { state in
            state.nextID += 1
            state.actions.append((state.nextID, action))
            return state.nextID
        }
        return Registration(id: id)
    }

    /// Runs every registered clean-up once (later calls find nothing left to run).
    static func runAll() {
        let actions = state.withLock { state in
            defer { state.actions.removeAll() }
            return state.actions.map(\.action)
        }
        for action in actions { action() }
    }

    /// Runs every registered clean-up, then ends the process with `status`.
    static func exit(_ status: Int32) -> Never {
        runAll()
        Foundation.exit(status)
    }

    /// One registered clean-up.
    struct Registration: Sendable {
        fileprivate let id: Int

        /// Forgets the clean-up without running it (the command did the work itself).
        func remove() {
            TerminationCleanup.state.withLock { state in state.actions.removeAll { $0.id == id } }
        }
    }
}
