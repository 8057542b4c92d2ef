import ArgumentParser
import Foundation
import Logging
import RichPushCodecs
import RichPushCore
import RichPushFiles
import RichPushLibrary
import RichPushNetwork
import RichPushReplay
import RichPushServe
import Synchronization

struct ReplayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Replay payload files headless and check them against their expectations.",
        discussion: """
            PATH is a payload file or a folder searched recursively for *.json and *.apns payloads \
            (NAME.expect.json files are expectations, not payloads). Payloads run concurrently, each in its \
            own extension instance; results are ordered by path. The last line is "N passed, N failed" over \
            the payloads that have expectations.

            Exit status: 0 when no expectation failed, 1 when any failed, 2 for usage or I/O errors and when \
            the paths hold no payload at all. \
            INT, TERM or HUP stop the replay, remove the downloaded attachments and exit with 128 + the \
            signal's number (130 for Ctrl-C). The --output file is written in place when the report is ready.

            Examples:
              richpush replay payloads
              richpush replay payloads/rich/png-background.json --state foreground
              richpush replay payloads --format junit --output replay.xml
              richpush replay my-payloads --image-key data.smallImage --download-timeout 2s
              richpush replay payloads/sdk --sdk all     (each payload through every SDK's extension)
              richpush replay payloads --extension MyApp.xcodeproj --extension-process all
              richpush replay payloads/presentation --screenshots shots   (PNGs of each view, for a ticket)
            """
    )

    @Argument(help: ArgumentHelp("Payload files or folders.", valueName: "PATH"))
    var paths: [String]

    @Option(help: "App state for payloads whose expectation does not set one.")
    var state: AppState = .background

    @Option(
        help:
            "Report format: text, json, jsonl (one result per line as each finishes), junit or html (one self-contained page with the images)."
    )
    var format: ReplayFormat = .text

    @Option(help: ArgumentHelp("Write the report to FILE instead of standard output.", valueName: "FILE"))
    var output: String?

    @Option(
        help: ArgumentHelp(
            "Also write each notification's lock screen, banner and expanded views, light and dark, as PNGs into DIR (made if absent), named for the payload: NAME.lockScreen.png, NAME.lockScreen-dark.png... Drawn by the HTML report in headless Chromium (apt-get install chromium).",
            valueName: "DIR"))
    var screenshots: String?

    @Option(
        help: ArgumentHelp(
            "Extensions in flight at once: payloads waiting on their downloads and timers, not CPU work (decoding and report rendering run apart, one slot per core). Each extension's deadline starts when it starts, so waiting for a turn never counts against it."
        ))
    var jobs: Int = 64

    @Option(
        help: ArgumentHelp(
            "Replay only shard I of N (1-based): the payloads sorted by path are dealt out in turn, so a CI matrix of N jobs covers each payload exactly once.",
            valueName: "I/N"))
    var shard: ShardArgument?

    @Flag(help: "Log every extension step to standard error.")
    var verbose = false

    @Flag(
        help:
            "Draw each rich notification's image under its line (text report on a terminal only; nothing extra when standard output is a file or a pipe)."
    )
    var preview = false

    @Flag(
        name: .customLong("device-matrix"),
        help:
            "Deliver every payload on a phone unlocked, locked, in a Focus, with Scheduled Summary, on silent, and all of those at night, and print a table of how each state gets it (the other phone flags stay)."
    )
    var deviceMatrix = false

    @OptionGroup var delivery: DeliveryOptions

    func validate() throws {
        guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1") }
        if screenshots != nil, delivery.allSDKs || delivery.allProcessModes || deviceMatrix {
            throw ValidationError(
                "--screenshots draws one replay, not a matrix (--sdk all, --extension-process all, --device-matrix)")
        }
        try validateMatrix()
    }

    func run() async throws {
        let logger = StandardStreams.logger(label: "richpush", verbose: verbose)
        let discovery: Discovery
        do {
            discovery = try PayloadDiscovery().discover(paths)
        } catch {
            throw CommandFailure.io("richpush replay: \(error)")
        }
        for notice in discovery.notices { StandardStreams.error("richpush replay: note: \(notice)\n") }
        // A path that holds nothing to replay is a mistake (a typo in a CI script), not a green run.
        if discovery.entries.isEmpty { throw Self.noPayloads(in: paths) }
        let files = discovery.files
        // Fail before the replay rather than after it, without touching what the file holds.
        let reportFile = try output.map { path throws(CommandFailure) in
            try Self.checkReportFile(path, against: files)
        }
        let shots = try screenshots.map { folder throws(CommandFailure) in try ReplayScreenshots.prepare(folder) }

        // What cannot be a payload (an unreadable folder, a FIFO named x.json) is an entry of its own, in path order.
        let selected = shard.map { $0.shard.select(discovery.entries) } ?? discovery.entries
        let (entries, payloadsNeedCDN, recordedFixtures) = Self.screen(
            selected, extensionFolder: delivery.extensionFolder)
        let needsCDN = payloadsNeedCDN || Self.isFixture(delivery.configuration.receiptURL)
        let command = self
        // A team's extension that does not build is one error before any payload.
        let built = try await delivery.buildExtension(command: "richpush replay")
        let outcome = try await CommandLifecycle.run(logger: logger) { parts in
            // The progress line is cleared however the replay ends, after the attachments are gone.
            parts.add(ShutdownAction { if StandardStreams.errorIsTerminal { StandardStreams.error("\r\u{1B}[K") } })
            let environment = try await EmulatorEnvironment.start(
                fixtureRoot: needsCDN ? command.delivery.fixtureRoot : nil,
                recordedFixtureRoots: needsCDN ? recordedFixtures : [], customExtension: built,
                extensionMemoryBytes: command.delivery.configuration.extensionMemoryBytes, logger: logger, in: parts,
                command: "richpush replay")
            return {
                try await command.replay(
                    entries, reportFile: reportFile, shots: shots, environment: environment, logger: logger)
            }
        }
        if case .interrupted(let signal) = outcome { throw CommandFailure.interrupted(by: signal) }
    }

    /// The replay itself, while the emulator runs: the report, the summary line, and a check failure (status 1)
    /// when an expectation did not hold.
    private func replay(
        _ entries: [DiscoveredEntry], reportFile: OutputFile?, shots: ReplayScreenshots?,
        environment: EmulatorEnvironment, logger: Logger
    ) async throws(CommandFailure) {
        let computePool = environment.computePool
        let system = environment.system(configuration: delivery.configuration, logger: logger)
        let runner = ReplayRunner(
            system: system, defaultState: state, jobs: jobs, computePool: computePool, endpoint: OfflineEndpoint())
        if delivery.allSDKs {
            let column = delivery.extensionFolder.map { ReplayMatrixRunner.customColumn(source: $0) }
            let matrix = await ReplayMatrixRunner(runner: runner, customColumn: column).run(
                entries.map { LoadedPayload.load($0) })
            return try writeMatrix(matrix, to: reportFile)
        }
        if deviceMatrix {
            let matrix = await ReplayMatrixRunner(runner: runner, devicesOver: delivery.phone.device).run(
                entries.map { LoadedPayload.load($0) })
            return try writeMatrix(matrix, to: reportFile)
        }
        if delivery.allProcessModes {
            let matrix = await ReplayMatrixRunner(runner: runner, modes: ExtensionProcessMode.allCases).run(
                entries.map { LoadedPayload.load($0) })
            return try writeMatrix(matrix, to: reportFile)
        }
        let writer = ReplayReportOutput(
            stream: ReportStream(
                format: format, paths: entries.map(\.path), context: reportContext,
                attachmentBytes: AttachmentFile.read, fileBytes: SafeFileReader.read),
            outputFile: reportFile, progress: StandardStreams.errorIsTerminal ? ProgressLine() : nil,
            preview: preview ? ReplayPreview.make(format: format, output: output) : nil,
            screenshots: shots != nil)
        let (report, pending, pages) = try await writer.replay(entries, runner: runner)
        try writer.finish(pending, path: output)
        if let shots {
            try await shots.write(pages)
            StandardStreams.error(
                "richpush replay: \(pages.count) screenshot\(pages.count == 1 ? "" : "s") written to \(shots.directory)\n"
            )
        }
        if let output {
            if format == .text {
                try StandardStreams.output(report.summaryLine + "\n")
            } else {
                try StandardStreams.output("Report written to \(output)\n\(report.summaryLine)\n")
            }
        } else if format != .text {
            // Standard output stays a valid document; the summary goes to the terminal on standard error.
            StandardStreams.error(report.summaryLine + "\n")
        }
        if report.failed > 0 { throw .checkFailed }
    }
}

extension ReplayCommand {
    /// The failure when the paths given hold no payload at all (status 2, one line naming them). Only files and
    /// folders that exist get here; a missing path was refused by discovery.
    static func noPayloads(in paths: [String]) -> CommandFailure {
        .usage(
            "richpush replay: no payloads in \(paths.joined(separator: ", ")) (payloads are *.json and *.apns files, not *.expect.json)"
        )
    }

    /// One read of every entry before the replay: the entries to replay (those whose `given.extension` names no
    /// extension, or the one this run has, as ``ExtensionRequirement`` decides; a note on standard error says how
    /// many were skipped and why), and whether any of them needs the fixture CDN. Each payload is read and let go,
    /// and read again when its turn comes, so none is held for the whole replay (memory stays flat in the corpus).
    ///
    /// Recordings add two notes: refusals that cannot be judged again offline (a provider token, never recorded)
    /// are skipped, and recordings whose image was not saved (`--record-images`) depend on the image's host. Their
    /// saved images (`given.fixtures`) come back as folders the fixture CDN serves too.
    static func screen(_ entries: [DiscoveredEntry], extensionFolder: String?) -> (
        entries: [DiscoveredEntry], needsCDN: Bool, recordedFixtures: [String]
    ) {
        var skipped: [ExtensionRequirement] = []
        var offline: [String] = []
        var imageHosts: [String: Int] = [:]
        var recordedFixtures: [String] = []
        var needsCDN = false
        let kept = entries.filter { entry in
            let payload = LoadedPayload.load(entry)
            if let requirement = ExtensionRequirement(payload), !requirement.isMet(by: extensionFolder) {
                skipped.append(requirement)
                return false
            }
            if let reason = payload.settings.request?.offline {
                offline.append("\(payload.file.path): \(reason)")
                return false
            }
            if let host = payload.settings.recorded?.imageHost { imageHosts[host, default: 0] += 1 }
            if let folder = payload.settings.fixtures {
                let base = (payload.file.path as NSString).deletingLastPathComponent
                let root = URL(fileURLWithPath: (base as NSString).appendingPathComponent(folder)).standardizedFileURL
                    .path
                if !recordedFixtures.contains(root), FileNode.exists(root) { recordedFixtures.append(root) }
            }
            needsCDN =
                needsCDN || payload.mentions(host: FixtureCDN.host) || isFixture(payload.settings.receiptURL)
            return true
        }
        if !skipped.isEmpty {
            StandardStreams.error("richpush replay: note: \(ExtensionRequirement.skippedNote(skipped))\n")
        }
        for line in offline {
            StandardStreams.error("richpush replay: note: skipped \(TextSanitizer.singleLine(line))\n")
        }
        for (host, count) in imageHosts.sorted(by: { $0.key < $1.key }) {
            StandardStreams.error(
                "richpush replay: note: \(count) recording\(count == 1 ? "" : "s") fetch their image from \(TextSanitizer.singleLine(host, limit: 80)) (recorded without --record-images): this replay depends on that host\n"
            )
        }
        return (kept, needsCDN, recordedFixtures)
    }

    /// Whether a receipt URL points at the embedded fixture CDN, which must then run.
    static func isFixture(_ url: URL?) -> Bool { url?.host?.lowercased() == FixtureCDN.host }
}

extension ReplayFormat: ExpressibleByArgument {}

struct ShardArgument: ExpressibleByArgument, Sendable {
    var shard: Shard

    init?(argument: String) {
        guard let shard = Shard(parsing: argument) else { return nil }
        self.shard = shard
    }
}

extension ReplayCommand {
    /// The run's settings as the HTML report's header shows them.
    var reportContext: ReportContext {
        var then: [ReportContext.Setting] = [.init("Jobs", "\(jobs)")]
        if let shard { then.append(.init("Shard", shard.shard.description)) }
        return ReportContext(
            about: [
                .init("Paths", paths.joined(separator: " ")),
                .init("App state", "\(state.rawValue) (unless an expectation sets one)"),
            ],
            configuration: delivery.configuration, customExtension: delivery.extensionFolder, then: then)
    }
}

extension ReplayCommand {
    /// The `--output` file, checked up front: writable, and not one of the files the replay reads (writing the
    /// report would destroy it). An I/O failure (status 2) otherwise.
    static func checkReportFile(_ path: String, against files: [PayloadFile]) throws(CommandFailure) -> OutputFile {
        let reportFile: OutputFile
        do {
            reportFile = try OutputFile(checking: path)
        } catch {
            throw .io("richpush replay: cannot write the report to \(path): \(error.reason)")
        }
        for file in files {
            for (input, kind) in [(file.path, "payload"), (file.expectationPath, "expectation file")] {
                guard let input, reportFile.isSameFile(as: input) else { continue }
                throw .io("richpush replay: --output \(path) is the \(kind) \(input); the report would overwrite it")
            }
        }
        return reportFile
    }
}

/// A progress line on standard error, redrawn in place, for replays run on a terminal.
final class ProgressLine: Sendable {
    private let start = ContinuousClock.now
    private let lastDraw = Mutex<ContinuousClock.Instant?>(nil)

    func update(done: Int, total: Int) {
        let now = ContinuousClock.now
        let draw = lastDraw.withLock { last -> Bool in
            if let last, now - last < .milliseconds(100), done < total { return false }
            last = now
            return true
        }
        guard draw else { return }
        let seconds = ((now - start).seconds * 10).rounded() / 10
        StandardStreams.error("\r\u{1B}[Kreplaying \(done)/\(total) payloads, \(seconds) s")
    }

    func clear() {
        StandardStreams.error("\r\u{1B}[K")
    }
}
