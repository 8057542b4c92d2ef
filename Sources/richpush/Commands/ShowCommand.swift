import ArgumentParser
import Foundation
import Logging
import RichPushCodecs
import RichPushCore
import RichPushFiles
import RichPushLibrary
import RichPushNetwork

/// `richpush show IMAGE_FILE_OR_URL`: draws one image on the terminal. An https URL goes through the
/// notification pipeline first, so the answer is also whether a notification would show it.
struct ShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Draw an image file or URL on the terminal, as a notification would get it.",
        discussion: """
            The image is drawn with the best protocol the terminal supports (kitty, iTerm2, sixels), or with \
            coloured block symbols (truecolor when COLORTERM says so, else 256, 16 or 8 colours).

            A URL is fetched as the Notification Service Extension fetches it (https only, the download timeout, \
            image/* content, under 10 MB; https://fixtures.richpush.test/ from --fixtures), so `show` also \
            answers "would this URL work in a notification?": when it would not, it prints the reason the \
            notification would get and exits with status 1.
              richpush show payloads/images/cat.png
              richpush show https://fixtures.richpush.test/cat.png
            """
    )

    @Argument(help: ArgumentHelp("An image file (PNG, JPEG, GIF) or an https URL.", valueName: "IMAGE_FILE_OR_URL"))
    var image: String

    @Option(help: ArgumentHelp("Draw at most this many columns wide (default: the terminal's width).", valueName: "N"))
    var width: Int?

    @Option(
        help: ArgumentHelp("Draw at most this many rows tall (default: the terminal's height less 3).", valueName: "N"))
    var height: Int?

    @Flag(help: "Use block symbols even on a terminal that shows pixels (kitty, iTerm2, sixels).")
    var symbols = false

    /// The URL is fetched by the requirement's extension from a payload of its own: the options about where a
    /// payload keeps its image, its push id or which extension runs are not offered.
    @OptionGroup var fetch: ImageFetchOptions

    func validate() throws {
        if let width, width < 1 { throw ValidationError("--width must be at least 1") }
        if let height, height < 1 { throw ValidationError("--height must be at least 1") }
    }

    func run() async throws {
        let terminal = TerminalImages.terminalSize
        let columns = width ?? max(1, terminal.columns)
        let rows = height ?? max(1, terminal.rows - 3)
        let images = TerminalImages(symbolsOnly: symbols)
        let isURL =
            image.range(of: "://") != nil || image.lowercased().hasPrefix("https:")
            || image.lowercased().hasPrefix("http:")
        let shown = TextSanitizer.singleLine(image, limit: 200)

        if !isURL {
            let bytes = try Self.readImageFile(image, shown: shown)
            switch images.draw(bytes: bytes, columns: columns, rows: rows) {
            case .success(let drawing):
                try StandardStreams.output(drawing + "\n")
            case .failure(let error):
                throw CommandFailure.checkFailed(
                    "richpush show: \(shown): \(TextSanitizer.singleLine(error.sentence))")
            }
            return
        }

        // A URL: delivered as a rich push whose only image is this URL, so every rule of the extension applies.
        let logger = Logger(label: "richpush.show", factory: { _ in SwiftLogNoOpLogHandler() })
        let needsCDN =
            URL(string: image)?.host?.lowercased() == FixtureCDN.host
            && FileNode.exists(fetch.fixtureRoot)
        let command = self
        let outcome = try await CommandLifecycle.run(logger: logger) { parts in
            let environment = try await EmulatorEnvironment.start(
                fixtureRoot: needsCDN ? command.fetch.fixtureRoot : nil, logger: logger, in: parts,
                command: "richpush show")
            return {
                try await command.show(
                    environment: environment, images: images, columns: columns, rows: rows, shown: shown,
                    logger: logger)
            }
        }
        if case .interrupted(let signal) = outcome { throw CommandFailure.interrupted(by: signal) }
    }

    /// Delivers the image URL as a push and draws what arrived; a check failure (status 1) when a notification
    /// would show no image.
    private func show(
        environment: EmulatorEnvironment, images: TerminalImages, columns: Int, rows: Int, shown: String,
        logger: Logger
    ) async throws(CommandFailure) {
        let system = environment.system(
            configuration: fetch.overrides.applied(to: DeliveryConfiguration()), logger: logger)
        let payload: [String: Any] = [
            "aps": ["alert": ["title": "richpush show"], "mutable-content": 1], "fcm_options": ["image": image],
        ]
        let bytes = [UInt8]((try? JSONSerialization.data(withJSONObject: payload)) ?? Data())
        let result = await system.deliver(.file("richpush show", bytes: bytes, appState: .background))
        var failure: String?
        if let fallback = result.fallback {
            failure = "a notification would show no image — \(fallback.reason.rawValue): \(fallback.detail)"
        } else if let attachment = result.attachment, result.style == .rich {
            switch images.draw(file: attachment.file, columns: columns, rows: rows) {
            case .success(let drawing):
                try StandardStreams.output(drawing + "\n")
                try StandardStreams.output("\(attachment.summary) · a notification would show it\n")
            case .failure(let error):
                failure = "the image arrived but does not decode — \(error.sentence)"
            }
        } else {
            failure = "a notification would show no image"
        }
        if let failure {
            throw .checkFailed("richpush show: \(shown): \(TextSanitizer.singleLine(failure))")
        }
    }

    /// The image file's bytes, read once and without blocking (a FIFO or a device is refused, never opened for a
    /// blocking read); a missing, unreadable, oversized or non-image file is one line naming it, exit status 1.
    private static func readImageFile(_ path: String, shown: String) throws(CommandFailure) -> [UInt8] {
        let limit = ImageDecoder.Budget().fileBytes
        let problem: String
        switch SafeFileReader.read(path, limit: limit) {
        case .bytes(let bytes):
            switch ImageInspector.inspect(bytes) {
            case .image: return bytes
            case .unsupportedImageType(let name):
                problem = "\(name) images are not shown; notifications show PNG, JPEG and GIF"
            case .notAnImage(let what):
                problem = "not an image (\(TextSanitizer.singleLine(what)))"
            }
        case .tooLarge(let size):
            problem = "\(ByteCount.text(size)) is over the \(ByteCount.limit(limit)) richpush decodes"
        case .failure(let message):
            problem = TextSanitizer.singleLine(message)
        }
        throw .checkFailed("richpush show: \(shown): \(problem)")
    }
}
