import ArgumentParser
import Foundation
import RichPushCore

@main
struct RichPush: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "richpush",
        abstract: "A terminal notification-center emulator for iOS rich push notifications.",
        discussion: """
            richpush does what an iPhone does when a push with an image arrives: it decides whether the \
            Notification Service Extension runs, downloads the image over HTTPS under the extension's rules \
            (5 s timeout, image/*, under 10 MB, https only) and attaches it, or falls back to plain text.

            Examples:
              richpush                        the notification center on payloads/
              richpush replay payloads        replay and check every payload
              richpush replay payloads --format json --output results.json
              richpush serve-fixtures --ca-out ca.pem
              richpush replay payloads/extensions/naive --extension examples/extensions/naive
            """,
        version: RichPushVersion.current,
        subcommands: [
            TUICommand.self, ReplayCommand.self, ServeFixtures.self, ServeCommand.self, PushCommand.self,
            ShowCommand.self, ExtensionCommand.self,
        ],
        defaultSubcommand: TUICommand.self
    )

    /// The one exit path: every command's failure is thrown up to here, printed as one line and turned into the
    /// status by ``CommandFailure``'s rule; the parser's own errors (usage, `--help`) by swift-argument-parser's.
    static func main() async {
        StandardStreams.ignoreBrokenPipes()
        let status: Int32
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
            status = 0
        } catch let failure as CommandFailure {
            if let message = failure.message { StandardStreams.error(message + "\n") }
            status = failure.status
        } catch {
            status = report(error)
        }
        Foundation.exit(status)
    }

    /// `--help` and `--version` (0), usage errors (2, one line), and any other error as an I/O failure (2).
    private static func report(_ error: any Error) -> Int32 {
        let code = exitCode(for: error)
        if code == .success {
            try? StandardStreams.output(fullMessage(for: error) + "\n")
            return 0
        }
        let message = message(for: error).split(separator: "\n").first.map(String.init) ?? "\(error)"
        if code == .validationFailure {
            StandardStreams.error("richpush: \(message) (see richpush --help)\n")
        } else if !message.isEmpty {
            StandardStreams.error("richpush: \(message)\n")
        }
        return 2
    }
}
