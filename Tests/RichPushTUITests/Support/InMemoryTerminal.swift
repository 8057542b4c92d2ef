import Synchronization
import Testing

@testable import RichPushTUI

/// A terminal for driving the whole UI in tests: keys are queued, frames are kept, and a test can
/// wait for the frame that shows what it expects instead of polling.
final class InMemoryTerminal: TerminalBackend, Sendable {
    private struct Screen {
        var size: TerminalSize
        var keys: [Key] = []
        var frames: [CellGrid] = []
        var watchers: [Int: AsyncStream<CellGrid>.Continuation] = [:]
        var nextWatcher = 0
    }

    private let screen: Mutex<Screen>

    init(size: TerminalSize) {
        screen = Mutex(Screen(size: size))
    }

    var size: TerminalSize { screen.withLock { $0.size } }

    func readKey() -> Key? {
        screen.withLock { $0.keys.isEmpty ? nil : $0.keys.removeFirst() }
    }

    func draw(_ grid: CellGrid) {
        let watchers = screen.withLock { screen in
            screen.frames.append(grid)
            return Array(screen.watchers.values)
        }
        for watcher in watchers { watcher.yield(grid) }
    }

    func type(_ keys: [Key]) {
        screen.withLock { $0.keys += keys }
    }

    func resize(to size: TerminalSize) {
        screen.withLock {
            $0.size = size
            $0.keys.append(.resize)
        }
    }

    var frameCount: Int { screen.withLock { $0.frames.count } }
    var lastFrame: CellGrid? { screen.withLock { $0.frames.last } }
    var text: String { lastFrame?.text ?? "" }

    /// The frame on screen now (if any), then every frame drawn after it, in order.
    func frames() -> AsyncStream<CellGrid> {
        let (stream, continuation) = AsyncStream.makeStream(of: CellGrid.self)
        let id = screen.withLock { screen in
            let id = screen.nextWatcher
            screen.nextWatcher += 1
            screen.watchers[id] = continuation
            if let last = screen.frames.last { continuation.yield(last) }
            return id
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.screen.withLock { $0.watchers.removeValue(forKey: id) }
        }
        return stream
    }

    /// Waits for a frame for which `matches` holds, and returns it; nil (with an issue recorded) when none
    /// came before `deadline`, which only bounds a failure.
    @discardableResult
    func waitForFrame(
        _ description: String, deadline: Duration = .seconds(60), sourceLocation: SourceLocation = #_sourceLocation,
        where matches: @escaping @Sendable (CellGrid) -> Bool
    ) async -> CellGrid? {
        let frames = self.frames()
        let found = await withTaskGroup(of: CellGrid?.self) { group in
            group.addTask {
                for await frame in frames where matches(frame) { return frame }
                return nil
            }
            group.addTask {
                try? await Task.sleep(for: deadline)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        if found == nil {
            Issue.record("no frame showed \(description); the last one:\n\(self.text)", sourceLocation: sourceLocation)
        }
        return found
    }

    /// Waits for a frame that shows `text`, and returns it. The deadline only bounds a failure: a
    /// frame that never comes is reported with the last screen instead of hanging the suite.
    @discardableResult
    func waitForFrame(
        containing text: String, deadline: Duration = .seconds(60), sourceLocation: SourceLocation = #_sourceLocation
    ) async -> CellGrid? {
        await waitForFrame("\"\(text)\"", deadline: deadline, sourceLocation: sourceLocation) {
            $0.text.contains(text)
        }
    }
}
