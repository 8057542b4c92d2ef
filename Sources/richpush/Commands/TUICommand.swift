import ArgumentParser
import Foundation
import Logging
import RichPushCore
import RichPushNetwork
import RichPushTUI

struct TUICommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tui",
        abstract: "Open the notification center: send payloads, switch the app state, inspect the results.",
        discussion: """
            Pick a payload from the library and press Enter to send it through the emulated device, in the \
            current app state (f foreground, b background, c closed, s cycles). Notifications arrive newest \
            first, with live download progress; Enter opens one, ? lists every key, q quits.

            Images at https://fixtures.richpush.test/ are served by the embedded fixture CDN from --fixtures.
            This is what `richpush` with no arguments runs.
            """
    )

    @Option(help: ArgumentHelp("Folder of payloads to offer.", valueName: "DIR"))
    var payloads: String = "payloads"

    @Option(help: "App state at launch.")
    var state: AppState = .background

    @Option(
        help: ArgumentHelp("Write the extension's log to FILE (nothing is logged to the terminal).", valueName: "FILE"))
    var log: String?

    @OptionGroup var delivery: DeliveryOptions

    func run() async throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: payloads, isDirectory: &isDirectory), isDirectory.boolValue else {
            StandardStreams.error("richpush: \(payloads): no such folder (choose one with --payloads DIR)\n")
            throw ExitCode(2)
        }
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else {
            StandardStreams.error(
                "richpush: the notification center needs an interactive terminal; for scripts use `richpush replay \(payloads)`\n"
            )
            throw ExitCode(2)
        }
        let logger: Logger
        do {
            logger = try Self.makeLogger(file: log)
        } catch {
            StandardStreams.error("richpush: cannot write the log to \(log ?? ""): \(error.localizedDescription)\n")
            throw ExitCode(2)
        }

        // Without the fixture folder the CDN cannot start; fixture URLs then fail as unknown hosts do.
        let fixtures = FileManager.default.fileExists(atPath: delivery.fixtureRoot) ? delivery.fixtureRoot : nil
        if fixtures == nil { logger.warning("no fixture folder at \(delivery.fixtureRoot); the fixture CDN is off") }
        let environment: EmulatorEnvironment
        do {
            environment = try await EmulatorEnvironment.start(fixtureRoot: fixtures, logger: logger)
        } catch {
            StandardStreams.error("richpush: cannot start the fixture CDN on \(delivery.fixtureRoot): \(error)\n")
            throw ExitCode(2)
        }

        let configuration = delivery.configuration
        let system = NotificationSystem(
            downloader: environment.downloader, configuration: configuration, logger: logger,
            receiptSender: environment.receiptSender)
        let app = NotificationCenterApp(
            library: PayloadLibrary(root: payloads),
            delivering: PayloadSettingsDelivery(system: system, store: environment.store),
            initialState: state, configuration: configuration, logger: logger)
        do {
            try await app.run()
        } catch {
            await environment.shutdown()
            StandardStreams.error("richpush: \(error)\n")
            throw ExitCode(2)
        }
        await environment.shutdown()
    }

    static func makeLogger(file: String?) throws -> Logger {
        guard let file else {
            return Logger(label: "richpush.tui") { _ in SwiftLogNoOpLogHandler() }
        }
        let handler = try FileLogHandler(path: file)
        var logger = Logger(label: "richpush.tui") { _ in handler }
        logger.logLevel = .debug
        return logger
    }
}
