import Glibc
public import Logging
public import RichPushCore
import RichPushGraphics
import UnixSignals

/// The interactive notification center: a payload library to send from, the app state, the list of
/// notifications with live progress, a detail view and a help overlay, in the terminal.
///
/// ```swift
/// let app = NotificationCenterApp(
///     library: PayloadLibrary(root: "payloads"),
///     delivering: adapterAroundANotificationSystem,
///     initialState: .background, configuration: configuration, logger: fileLogger)
/// try await app.run()
/// ```
/// Nothing is printed while the UI owns the terminal: pass a logger that writes to a file or nowhere.
public struct NotificationCenterApp: Sendable {
    public var library: PayloadLibrary
    public var delivering: any NotificationDelivering
    public var initialState: AppState
    public var configuration: DeliveryConfiguration
    public var logger: Logger
    /// Pushes arriving over the network, shown like sent payloads; nil when nothing listens.
    public var network: NetworkFeed?
    /// The status line's first message (e.g. why the push endpoint is not listening).
    public var initialStatus: String?
    /// Whether attachment images are drawn (`--images`).
    public var images: ImageMode
    /// Reads attachment files into pixels; without one no image is drawn.
    public var imageLoader: (any AttachmentImageLoading)?

    public init(
        library: PayloadLibrary, delivering: any NotificationDelivering, initialState: AppState = .background,
        configuration: DeliveryConfiguration = DeliveryConfiguration(),
        logger: Logger = Logger(label: "richpush.tui", factory: { _ in SwiftLogNoOpLogHandler() }),
        network: NetworkFeed? = nil, initialStatus: String? = nil, images: ImageMode = .auto,
        imageLoader: (any AttachmentImageLoading)? = nil
    ) {
        self.images = images
        self.imageLoader = imageLoader
        self.network = network
        self.initialStatus = initialStatus
        self.library = library
        self.delivering = delivering
        self.initialState = initialState
        self.configuration = configuration
        self.logger = logger
    }

    /// Takes over the terminal until the user quits (q or Ctrl-C) or a signal asks it to (INT, TERM, HUP),
    /// then restores it.
    /// - Throws: ``TerminalError`` when standard input or output is not a terminal curses can drive.
    public func run() async throws {
        let started = ContinuousClock.now
        let terminal = try CursesTerminal()
        defer { terminal.close() }

        let (events, continuation) = AsyncStream.makeStream(of: AppEvent.self)
        // INT, TERM and HUP come to the run loop, which quits as if q was pressed (terminal restored,
        // attachments removed). Their dispositions are set to ignore first, so neither the default
        // action nor the INT and TERM handlers curses installed can end the process on the way. A signal
        // the process was started with ignored (`trap '' HUP`, nohup) stays ignored.
        let quitSignals = [UnixSignal.sigint, .sigterm, .sighup].filter { !Self.isIgnored($0.rawValue) }
        for quitSignal in quitSignals { signal(quitSignal.rawValue, SIG_IGN) }
        let signals = await UnixSignalsSequence(trapping: quitSignals)
        let quitRequest = QuitRequest()
        let signalWatcher = Task {
            for await received in signals {
                logger.info("quitting on a signal", metadata: ["signal": "\(received)"])
                quitRequest.request()
                continuation.yield(.terminated)
            }
        }
        defer {
            signalWatcher.cancel()
            for quitSignal in quitSignals { signal(quitSignal.rawValue, SIG_DFL) }
        }
        let watcher = InputWatcher(continuation: continuation)
        let ticker = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(250))
                continuation.yield(.tick)
            }
        }
        defer {
            ticker.cancel()
            watcher.stop()
            continuation.finish()
        }

        var state = TUIState(
            appState: initialState, configuredLimits: EffectiveLimits(configuration), libraryRoot: library.root,
            size: terminal.size, startTimeOfDay: LocalTime.secondsSinceMidnight())
        state.listening = network?.listening
        state.sdk = configuration.sdk
        state.endpointHelp = network?.help ?? []
        state.status = initialStatus
        var drawing: ImageDrawing?
        if let imageLoader {
            state.images = ImageSettings.resolve(
                mode: images, colors: terminal.colorCount, direct: terminal.hasDirectColor, utf8: terminal.isUTF8)
            drawing = state.images.map { ImageDrawing(loader: imageLoader, renderer: $0.renderer) }
        }
        logger.info(
            "images",
            metadata: [
                "mode": "\(images.rawValue)", "colors": "\(terminal.colorCount)",
                "direct": "\(terminal.hasDirectColor)",
                "drawn": "\(state.images.map { $0.renderer.colorMode.rawValue } ?? "no")",
            ])
        let loop = NotificationCenterLoop(
            terminal: terminal, library: library, delivering: delivering, state: state,
            continuation: continuation, logger: logger, started: started, network: network, imageDrawing: drawing,
            quitRequest: quitRequest)
        loop.onInputDrained = { watcher.inputDrained() }
        watcher.start()
        await loop.run(events: events)
        logger.info("notification center closed")
    }

    /// Whether signal `number` is ignored now (inherited from the parent; curses only replaces default actions).
    private static func isIgnored(_ number: Int32) -> Bool {
        var current = sigaction()
        guard sigaction(number, nil, &current) == 0 else { return false }
        return unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self)
            == unsafeBitCast(SIG_IGN, to: Int.self)
    }
}
