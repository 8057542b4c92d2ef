import Synchronization

@testable import RichPushTUI

/// A terminal for driving the whole UI in tests: keys are queued, frames are kept.
final class InMemoryTerminal: TerminalBackend, Sendable {
    private struct Screen {
        var size: TerminalSize
        var keys: [Key] = []
        var frames: [CellGrid] = []
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
        screen.withLock { $0.frames.append(grid) }
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
}
