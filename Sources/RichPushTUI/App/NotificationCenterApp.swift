import Dispatch
import Foundation
public import Logging
public import RichPushCore

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

    public init(
        library: PayloadLibrary, delivering: any NotificationDelivering, initialState: AppState = .background,
        configuration: DeliveryConfiguration = DeliveryConfiguration(),
        logger: Logger = Logger(label: "richpush.tui", factory: { _ in SwiftLogNoOpLogHandler() })
    ) {
        self.library = library
        self.delivering = delivering
        self.initialState = initialState
        self.configuration = configuration
        self.logger = logger
    }

    /// Takes over the terminal until the user quits (q or Ctrl-C), then restores it.
    /// - Throws: ``TerminalError`` when standard input or output is not a terminal curses can drive.
    public func run() async throws {
        let started = ContinuousClock.now
        let terminal = try CursesTerminal()
        defer { terminal.close() }

        let (events, continuation) = AsyncStream.makeStream(of: AppEvent.self)
        let terminationSignals = [SIGTERM, SIGHUP].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { continuation.yield(.terminated) }
            source.resume()
            return source
        }
        defer {
            for source in terminationSignals { source.cancel() }
            signal(SIGTERM, SIG_DFL)
            signal(SIGHUP, SIG_DFL)
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

        let state = TUIState(
            appState: initialState, limits: DeliveryLimits(configuration), libraryRoot: library.root,
            size: terminal.size, startTimeOfDay: LocalTime.secondsSinceMidnight())
        let loop = NotificationCenterLoop(
            terminal: terminal, library: library, delivering: delivering, state: state,
            continuation: continuation, logger: logger, started: started)
        loop.onInputDrained = { watcher.inputDrained() }
        watcher.start()
        await loop.run(events: events)
        logger.info("notification center closed")
    }
}
