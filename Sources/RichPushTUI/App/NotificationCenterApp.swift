import Glibc
public import Logging
public import RichPushCore
import RichPushGraphics

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

    /// Takes over the terminal until the user quits (q or Ctrl-C as a key) or the task running it is cancelled
    /// (the command's lifecycle does so on INT, TERM and HUP), then restores it.
    /// - Throws: ``TerminalError`` when standard input or output is not a terminal curses can drive.
    public func run() async throws {
        let started = ContinuousClock.now
        let terminal = try CursesTerminal()
        defer { terminal.close() }

        let (events, continuation) = AsyncStream.makeStream(of: AppEvent.self)
        // Cancellation comes to the run loop, which quits as if q was pressed (terminal restored, attachments
        // removed), ahead of any backlog of queued events.
        let quitRequest = QuitRequest()
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
        state.phone = configuration.device
        state.categories = configuration.categories
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
        await withTaskCancellationHandler {
            await loop.run(events: events)
        } onCancel: {
            quitRequest.request()
            continuation.yield(.terminated)
        }
        logger.info("notification center closed")
    }
}
