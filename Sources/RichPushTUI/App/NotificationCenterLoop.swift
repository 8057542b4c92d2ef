import Logging
import RichPushCore
import RichPushLibrary

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
    /// When the last frame was drawn: news arriving faster than frames can be drawn (a burst of pushes from the
    /// network) is drawn at most once per frame interval, so a burst of 10,000 does not queue 10,000 full redraws
    /// ahead of the user's keys (and of a quit).
    private var lastDraw: ContinuousClock.Instant?
    private var flushScheduled = false
    private let frameInterval: Duration = .milliseconds(16)
    /// Called after the keys waiting on input were read.
    var onInputDrained: () -> Void = {}
    /// Pushes arriving over the network; told the app state whenever it changes.
    private let network: NetworkFeed?
    /// Draws attachments as cells; nil when images are off.
    private let imageDrawing: ImageDrawing?
    private var imageTasks: [ImageKey: Task<Void, Never>] = [:]
    /// The task that wakes the loop for an animated image's next frame, and when (seconds since start).
    private var frameTimer: (task: Task<Void, Never>, at: Double)?
    /// Set by a quit signal; checked before each event, so the quit does not queue behind other events.
    private let quitRequest: QuitRequest?

    init(
        terminal: Terminal, library: PayloadLibrary, delivering: any NotificationDelivering, state: TUIState,
        continuation: AsyncStream<AppEvent>.Continuation, logger: Logger,
        started: ContinuousClock.Instant = ContinuousClock.now, network: NetworkFeed? = nil,
        imageDrawing: ImageDrawing? = nil, quitRequest: QuitRequest? = nil
    ) {
        self.quitRequest = quitRequest
        self.network = network
        self.imageDrawing = imageDrawing
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
        network?.appStateChanged(state.appState)
        network?.phoneChanged(state.phone)
        // Pushes from the network come in as actions, in the order the endpoint reported them.
        let arrivals = network.map { feed in
            Task { [continuation] in
                for await action in feed.actions { continuation.yield(.action(action)) }
            }
        }
        defer { arrivals?.cancel() }
        apply([.tick(elapsed), .resized(terminal.size), .libraryLoaded(library.listing())])
        redraw()
        logger.info(
            "first frame", metadata: ["ms": "\(Format.fixed(elapsed * 1000, 1))", "size": "\(state.size)"])

        for await event in events {
            if quitRequest?.isRequested == true {
                apply([.quit])
                break
            }
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
                switch action {
                case .deliveryProgress, .networkPushProgress(_, _, .bytesReceived):
                    hasPendingNews = true
                default:
                    if let lastDraw, received - lastDraw < frameInterval {
                        // Drawn with the next event, or by the flush one frame interval from now.
                        hasPendingNews = true
                        scheduleFlush()
                    } else {
                        drawNow = true
                    }
                }
            }
            apply(actions)
            if state.isQuitting { break }
            if drawNow {
                // The drawings the frame needs are looked up when a frame is drawn, not for every event.
                requestImages()
                redraw()
                if case .input = event {
                    logger.debug(
                        "key handled", metadata: ["ms": "\(Format.fixed((clock.now - received).seconds * 1000, 2))"])
                }
            }
        }
        for task in deliveries.values { task.cancel() }
        deliveries.removeAll()
        for task in imageTasks.values { task.cancel() }
        imageTasks.removeAll()
        frameTimer?.task.cancel()
    }

    private func readKeys() -> [Action] {
        var actions: [Action] = []
        while let key = terminal.readKey() {
            if key == .resize {
                actions.append(.resized(terminal.size))
            } else {
                // Routed by `reduce`: an open text prompt takes the key as typed text.
                actions.append(.key(key))
            }
        }
        return actions
    }

    private func apply(_ actions: [Action]) {
        let appState = state.appState
        let sdk = state.sdk
        let phone = state.phone
        defer {
            if state.appState != appState { network?.appStateChanged(state.appState) }
            if state.phone != phone { network?.phoneChanged(state.phone) }
            if state.sdk != sdk { delivering.sdkChanged(state.sdk) }
        }
        for action in actions {
            switch action {
            case .deliveryFinished(let id, _), .deliveryFailed(let id, _):
                deliveries[id] = nil
            case .imageRendered(let key, _):
                imageTasks[key] = nil
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
        case .deliver(let id, let file, let appState, let device):
            deliveries[id] = startDelivery(id: id, file: file, appState: appState, device: device)
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
        case .recordNotification(let result):
            let delivering = self.delivering
            let continuation = self.continuation
            Task { continuation.yield(.action(.recordFinished(await delivering.record(result)))) }
        case .quit:
            break
        }
    }

    private func startDelivery(id: Int, file: String, appState: AppState, device: DeviceState) -> Task<Void, Never> {
        let library = self.library
        let delivering = self.delivering
        let continuation = self.continuation
        let logger = self.logger
        return Task {
            // The same loader as replay: a file too large to be a payload is a rejected notification, and the
            // expectation beside it gives the payload's settings. The app state stays the one chosen on screen.
            let path = library.path(of: file)
            let loaded = LoadedPayload.load(PayloadFile.at(path))
            guard var input = loaded.deliveryInput(in: appState) else {
                let problem = "\(path): \(loaded.readError ?? "cannot read the file")"
                continuation.yield(.action(.deliveryFailed(id: id, problem)))
                return
            }
            // The phone on screen; the payload's own given.device (its devicePatch) still patches over it.
            input.settings.device = device
            logger.debug("sending", metadata: ["file": "\(file)", "appState": "\(appState.rawValue)"])
            var result = await delivering.deliver(input) { progress in
                continuation.yield(.action(.deliveryProgress(id: id, progress)))
            }
            if let problem = loaded.expectationError {
                // Replay fails such a payload; here it is sent with the command line's settings, and the hint
                // says why.
                result.hint = [
                    "The expectation file beside it cannot be used (\(problem)), so it was sent with the command line's settings.",
                    result.hint,
                ].compactMap { $0 }.joined(separator: " ")
            }
            continuation.yield(.action(.deliveryFinished(id: id, result)))
        }
    }

    /// Starts drawing the images the screen needs that are not drawn yet (off the input path: the frame
    /// shows them when they arrive), and keeps an animated image's next frame on time.
    private func requestImages() {
        guard let imageDrawing else { return }
        for key in ImageLayout.needed(state) where state.renderedImages[key] == nil && imageTasks[key] == nil {
            let continuation = self.continuation
            imageTasks[key] = Task {
                let image = await imageDrawing.draw(key)
                continuation.yield(.action(.imageRendered(key, image)))
            }
        }
        scheduleNextFrame()
    }

    private func scheduleNextFrame() {
        guard state.isPlayingImage, let image = state.detailImage,
            let wait = image.timeToNextFrame(at: state.animation.elapsed(at: state.now))
        else {
            frameTimer?.task.cancel()
            frameTimer = nil
            return
        }
        let at = state.now + wait
        if let frameTimer, abs(frameTimer.at - at) < 0.001 { return }
        frameTimer?.task.cancel()
        let continuation = self.continuation
        frameTimer = (
            Task {
                try? await Task.sleep(for: .seconds(wait))
                if !Task.isCancelled { continuation.yield(.tick) }
            }, at
        )
    }

    /// Wakes the loop one frame interval from now, so news held back by the frame interval is drawn even when
    /// nothing else happens.
    private func scheduleFlush() {
        guard !flushScheduled else { return }
        flushScheduled = true
        let continuation = self.continuation
        let interval = frameInterval
        Task {
            try? await Task.sleep(for: interval)
            continuation.yield(.tick)
        }
    }

    private func redraw() {
        hasPendingNews = false
        flushScheduled = false
        lastDraw = clock.now
        let frame = render(state, size: terminal.size)
        guard frame != lastFrame else { return }
        terminal.draw(frame)
        lastFrame = frame
    }
}
