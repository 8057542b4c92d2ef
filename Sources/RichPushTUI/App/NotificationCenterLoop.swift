import Logging
import RichPushCore

/// The run loop: turns keys, ticks and delivery news into actions, applies them with `reduce`,
/// starts the work effects ask for, and shows `render`'s frame when it changed.
///
/// Used by one task at a time; deliveries run in their own tasks and come back through `events`.
final class NotificationCenterLoop<Terminal: TerminalBackend> {
    private let terminal: Terminal
    private let library: PayloadLibrary
    private let delivering: any NotificationDelivering
    private let logger: Logger
    private let continuation: AsyncStream<AppEvent>.Continuation
    private let clock = ContinuousClock()
    private let started: ContinuousClock.Instant
    private(set) var state: TUIState
    private var lastFrame: CellGrid?
    private var deliveries: [Int: Task<Void, Never>] = [:]
    private var hasPendingNews = false
    /// Called after the keys waiting on input were read.
    var onInputDrained: () -> Void = {}

    init(
        terminal: Terminal, library: PayloadLibrary, delivering: any NotificationDelivering, state: TUIState,
        continuation: AsyncStream<AppEvent>.Continuation, logger: Logger,
        started: ContinuousClock.Instant = ContinuousClock.now
    ) {
        self.terminal = terminal
        self.library = library
        self.delivering = delivering
        self.state = state
        self.continuation = continuation
        self.logger = logger
        self.started = started
    }

    private var elapsed: Double { (clock.now - started).seconds }

    /// Draws the first frame, then handles events until the user quits or input closes.
    func run(events: AsyncStream<AppEvent>) async {
        apply([.tick(elapsed), .resized(terminal.size), .libraryLoaded(library.listing())])
        redraw()
        logger.info(
            "first frame", metadata: ["ms": "\(Format.fixed(elapsed * 1000, 1))", "size": "\(state.size)"])

        for await event in events {
            let received = clock.now
            var actions: [Action] = [.tick(elapsed)]
            var drawNow = false
            switch event {
            case .input:
                actions += readKeys()
                onInputDrained()
                drawNow = true
            case .inputClosed, .terminated:
                actions.append(.quit)
            case .tick:
                actions += readKeys()
                drawNow = hasPendingNews || state.isAnimating || actions.count > 1
            case .action(let action):
                actions.append(action)
                // Byte counts can arrive many times a second; the next tick shows them.
                if case .deliveryProgress = action {
                    hasPendingNews = true
                } else {
                    drawNow = true
                }
            }
            apply(actions)
            if state.isQuitting { break }
            if drawNow {
                redraw()
                if case .input = event {
                    logger.debug(
                        "key handled", metadata: ["ms": "\(Format.fixed((clock.now - received).seconds * 1000, 2))"])
                }
            }
        }
        for task in deliveries.values { task.cancel() }
        deliveries.removeAll()
    }

    private func readKeys() -> [Action] {
        var actions: [Action] = []
        while let key = terminal.readKey() {
            if key == .resize {
                actions.append(.resized(terminal.size))
            } else if let action = KeyBindings.action(for: key) {
                actions.append(action)
            }
        }
        return actions
    }

    private func apply(_ actions: [Action]) {
        for action in actions {
            switch action {
            case .deliveryFinished(let id, _), .deliveryFailed(let id, _):
                deliveries[id] = nil
            default:
                break
            }
            for effect in reduce(&state, action) {
                perform(effect)
            }
        }
    }

    private func perform(_ effect: Effect) {
        switch effect {
        case .deliver(let id, let file, let appState):
            deliveries[id] = startDelivery(id: id, file: file, appState: appState)
        case .loadLibrary:
            let library = self.library
            let continuation = self.continuation
            Task { continuation.yield(.action(.libraryLoaded(library.listing()))) }
        case .discardAttachments(let files):
            let delivering = self.delivering
            Task { await delivering.discardAttachments(files) }
        case .exportReport(let results):
            let delivering = self.delivering
            let continuation = self.continuation
            Task { continuation.yield(.action(.exportFinished(await delivering.exportReport(results)))) }
        case .quit:
            break
        }
    }

    private func startDelivery(id: Int, file: String, appState: AppState) -> Task<Void, Never> {
        let library = self.library
        let delivering = self.delivering
        let continuation = self.continuation
        let logger = self.logger
        return Task {
            let bytes: [UInt8]
            do {
                bytes = try library.contents(of: file)
            } catch {
                continuation.yield(.action(.deliveryFailed(id: id, "\(error)")))
                return
            }
            logger.debug("sending", metadata: ["file": "\(file)", "appState": "\(appState.rawValue)"])
            let result = await delivering.deliver(payload: bytes, file: library.path(of: file), appState: appState) {
                progress in
                continuation.yield(.action(.deliveryProgress(id: id, progress)))
            }
            continuation.yield(.action(.deliveryFinished(id: id, result)))
        }
    }

    private func redraw() {
        hasPendingNews = false
        let frame = render(state, size: terminal.size)
        guard frame != lastFrame else { return }
        terminal.draw(frame)
        lastFrame = frame
    }
}
