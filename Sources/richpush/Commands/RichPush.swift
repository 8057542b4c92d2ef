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
            """,
        version: RichPushVersion.current,
        subcommands: [
            TUICommand.self, ReplayCommand.self, ServeFixtures.self, ServeCommand.self, PushCommand.self,
            ShowCommand.self,
        ],
        defaultSubcommand: TUICommand.self
    )

    /// Usage errors exit with 2 and one line on standard error, as the replay contract promises.
    static func main() async {
        StandardStreams.ignoreBrokenPipes()
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                // --help and --version.
                StandardStreams.output(fullMessage(for: error) + "\n")
                Foundation.exit(0)
            }
            if code == .validationFailure {
                let message = message(for: error).split(separator: "\n").first.map(String.init) ?? "invalid usage"
                StandardStreams.error("richpush: \(message) (see richpush --help)\n")
                Foundation.exit(2)
            }
            if let exit = error as? ExitCode { Foundation.exit(exit.rawValue) }
            let message = message(for: error)
            if !message.isEmpty { StandardStreams.error("richpush: \(message)\n") }
            Foundation.exit(code.rawValue == 0 ? 1 : code.rawValue)
        }
    }
}
