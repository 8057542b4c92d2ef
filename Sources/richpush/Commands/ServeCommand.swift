import ArgumentParser
import Foundation
import Logging
import RichPushCodecs
import RichPushCore
import RichPushFiles
import RichPushNetwork
import RichPushReplay
import RichPushServe
import Synchronization
import ServiceLifecycle
import UnixSignals

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `richpush serve`: the APNs and FCM endpoints, headless, for CI and backend integration tests.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Receive pushes over HTTP/2 as APNs and FCM would, and show what the phone does with each.",
        discussion: """
            Listens for the APNs provider API (POST /3/device/<token>) and FCM HTTP v1 \
            (POST /v1/projects/<project>/messages:send) over HTTP/2 with TLS (a certificate for localhost, the --listen \
            host name, 127.0.0.1 and ::1 from a CA generated at start; --ca-out writes the CA), or h2c with --plaintext. Each push is \
            validated as APNs or FCM does and answered with their status and reason; accepted pushes go through the \
            emulated iPhone. One line (or one JSON object with --format jsonl) per push as it completes. \
            GET /richpush/v1/notifications lists the results so far, DELETE clears them. \
            POST /richpush/v1/receipts takes display receipts (--receipt-url https://localhost:PORT/richpush/v1/receipts \
            sends the phone's receipts there), GET lists them, DELETE clears them. \
            POST /richpush/v1/responses answers a shown notification as the person would \
            ({"notification": "<apns-id>", "action": "reply", "text": "On my way"}: a button of the category that \
            --categories registers, "default" or "dismiss"); GET lists what the app was handed.

            Example:
              richpush serve --bundle-id com.example.app --ca-out ca.pem
              curl --http2 --cacert ca.pem -H "apns-topic: com.example.app" -H "authorization: bearer $JWT" \\
                --data '{"aps":{"alert":"Hi"}}' https://localhost:2197/3/device/<64 hex digits>
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text
        case jsonl
    }

    /// `--host` and `--port`, the earlier spelling of `--listen HOST:PORT`; still accepted for one release, with a
    /// note on standard error.
    @Option(name: .customLong("host"), help: .hidden)
    var deprecatedHost: String?

    @Option(name: .customLong("port"), help: .hidden)
    var deprecatedPort: Int?

    /// Where the server listens: `--listen`, or the deprecated `--host`/`--port` in place of its parts.
    var address: ListenAddress {
        if let listen = endpoint.listen { return listen }
        return ListenAddress(
            host: deprecatedHost ?? ListenAddress.standard.host, port: deprecatedPort ?? ListenAddress.standard.port)
    }

    @OptionGroup var endpoint: EndpointOptions

    @Flag(help: "Serve HTTP/2 without TLS (prior knowledge, h2c), for clients whose trust store cannot be changed.")
    var plaintext = false

    @Option(help: "The app state every push arrives in.")
    var state: AppState = .background

    @Option(help: "One line per push (text) or one JSON result per line (jsonl).")
    var format: Format = .text

    @Option(help: ArgumentHelp("Write the lines to FILE instead of standard output.", valueName: "FILE"))
    var output: String?

    @Option(help: ArgumentHelp("Stop (exit 0) after N pushes.", valueName: "N"))
    var count: Int?

    @OptionGroup var delivery: DeliveryOptions

    @Option(
        name: .customLong("summary-at"),
        help: ArgumentHelp(
            "With --summary on: deliver the Scheduled Summary at these times of day, HH:MM[:SS] comma-separated (default: 08:00,18:00, as iOS's setup proposes). POST /richpush/v1/summary delivers it at once.",
            valueName: "TIME,..."))
    var summaryAt: String?

    /// When the Scheduled Summary comes by itself: with `--summary on`, `--summary-at`'s times or iOS's; else never.
    var summarySchedule: SummarySchedule? {
        guard delivery.phone.device.summary else { return nil }
        guard let summaryAt else { return .iOSSetup }
        return try? SummarySchedule.parse(summaryAt).get()
    }

    @OptionGroup var recording: RecordOptions

    @Flag(help: "Log every step to standard error.")
    var verbose = false

    func validate() throws {
        if let deprecatedPort, !(0...65535).contains(deprecatedPort) {
            throw ValidationError("--port must be between 0 and 65535")
        }
        if endpoint.listen != nil, deprecatedHost != nil || deprecatedPort != nil {
            throw ValidationError("--host and --port are the old spelling of --listen HOST:PORT; give only --listen")
        }
        if let count, count < 1 { throw ValidationError("--count must be at least 1") }
        if plaintext, endpoint.caOut != nil { throw ValidationError("--plaintext has no certificate: drop --ca-out") }
        if let summaryAt {
            if case .failure(let error) = SummarySchedule.parse(summaryAt) {
                throw ValidationError("--summary-at: \(error.message)")
            }
            if !delivery.phone.device.summary {
                throw ValidationError("--summary-at needs --summary on: without it nothing waits for a summary")
            }
        }
        if delivery.allSDKs { throw ValidationError("--sdk all is for replay; serve emulates one SDK at a time") }
        if delivery.allProcessModes {
            throw ValidationError("--extension-process all is for replay; serve runs the extension one way at a time")
        }
    }

    func run() async throws {
        if deprecatedHost != nil || deprecatedPort != nil {
            StandardStreams.error(
                "\(Self.name): --host and --port are deprecated and will be removed; use --listen \(address)\n")
        }
        let logger = StandardStreams.logger(label: "richpush.serve", verbose: verbose)
        let signingKey = try endpoint.providerKey.signingKey(command: Self.name)
        let caFile = try CACertificateFile.check(endpoint.caOut, command: Self.name)
        let sink = try openSink()
        let recorder = try recording.recorder(
            command: Self.name, delivery: delivery,
            note: { StandardStreams.error("\(Self.name): \(TextSanitizer.singleLine($0))\n") })
        // Why serve stops by itself: --count was reached, or the lines could not be written.
        let (stops, requestStop) = AsyncStream.makeStream(of: ServeStop.self)
        let printer = ResultPrinter(format: format, sink: sink, limit: count, stop: { requestStop.yield($0) })
        let command = self
        let outcome = try await CommandLifecycle.run(logger: logger) { parts in
            // Added before the server, so it stops after it: what the last deliveries queued is written.
            if let recorder { parts.add(recorder) }
            let server = try await command.start(
                parts: parts, signingKey: signingKey, caFile: caFile, printer: printer, recorder: recorder,
                logger: logger)
            return {
                var reasons = stops.makeAsyncIterator()
                if case .failed(let failure)? = await reasons.next() { throw failure }
                _ = server
            }
        }
        printer.finish()
        sink.finish()
        if case .interrupted(let signal) = outcome {
            StandardStreams.error(
                "\(Self.name): stopped (\(signal)) after \(printer.printed) push\(printer.printed == 1 ? "" : "es")\n")
        }
    }

    static let name = "richpush serve"

    /// Starts the emulator, the server and its receipt sender, and writes the CA; each is a part of the command,
    /// so it stops when the command ends, however it ends.
    private func start(
        parts: CommandLifecycle.Parts, signingKey: ProviderTokenVerifier.SigningKey?, caFile: OutputFile?,
        printer: ResultPrinter, recorder: PushRecorder?, logger: Logger
    ) async throws(CommandFailure) -> PushServer {
        let fixtureRoot = FileNode.exists(delivery.fixtureRoot) ? delivery.fixtureRoot : nil
        let built = try await delivery.buildExtension(command: Self.name)
        let environment = try await EmulatorEnvironment.start(
            fixtureRoot: fixtureRoot, customExtension: built,
            extensionMemoryBytes: delivery.configuration.extensionMemoryBytes, logger: logger, in: parts,
            command: "\(Self.name)")
        let appState = state
        let server: PushServer
        do {
            var configuration = PushServerConfiguration(
                host: address.host, port: address.port, plaintext: plaintext, bundleID: endpoint.bundleID,
                unregisteredTokens: endpoint.unregistered,
                signingKey: signingKey)
            configuration.recorder = recorder
            configuration.summarySchedule = summarySchedule
            server = try await PushServer.start(
                configuration: configuration, appState: { appState }, logger: logger, onResult: printer.print)
        } catch {
            throw .io("\(Self.name): cannot listen on \(address): \(error)")
        }
        parts.add(server)
        if let schedule = summarySchedule {
            parts.add(
                SummaryScheduler(store: server.summaries, schedule: schedule) { summary in
                    StandardStreams.error(Self.summaryLine(summary))
                })
        }
        // The system is made once the server runs: receipts to this server itself trust the CA it generated, on the
        // port it got; the others go out as from any front end. Pushes accepted until then wait.
        let receiptSender = try ServerReceiptRouter.sender(
            for: server, environment: environment, parts: parts, logger: logger, command: Self.name)
        server.startDeliveries(
            through: environment.system(
                configuration: delivery.configuration, logger: logger, receiptSender: receiptSender))

        var caPath: String?
        if let pem = server.caCertificatePEM {
            do {
                caPath = try CACertificateFile.write(
                    pem, to: caFile, temporaryFor: .serve, parts: parts)
            } catch {
                throw .io("\(Self.name): cannot write the CA certificate to \(error.path): \(error.reason)")
            }
        }
        StandardStreams.error(banner(server: server, caPath: caPath, fixtures: fixtureRoot))
        return server
    }

    /// The line serve writes when a summary is delivered by the schedule.
    static func summaryLine(_ summary: SummaryStore.Delivered) -> String {
        let featured = summary.featuredTitle.map { "; featured: \(TextSanitizer.singleLine($0, limit: 60))" } ?? ""
        let clock = Calendar.current.dateComponents([.hour, .minute], from: summary.at)
        let time = String(format: "%02d:%02d", clock.hour ?? 0, clock.minute ?? 0)
        return
            "\(name): Scheduled Summary delivered at \(time): \(summary.count) notification\(summary.count == 1 ? "" : "s")\(featured)\n"
    }

    private func openSink() throws(CommandFailure) -> LineSink {
        guard let output else { return LineSink(descriptor: STDOUT_FILENO, path: nil) }
        // The file the user named for these lines: created, or emptied and rewritten as the pushes arrive.
        let descriptor = open(output, O_WRONLY | O_CREAT | O_TRUNC | O_NOCTTY | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else {
            throw .io("\(Self.name): cannot write to \(output): \(FileDescriptorWriter.describe(errno))")
        }
        return LineSink(descriptor: descriptor, path: output)
    }

    private func banner(server: PushServer, caPath: String?, fixtures: String?) -> String {
        var lines = [
            "richpush serve listening on \(address.shownHost):\(server.port) (\(plaintext ? "HTTP/2 without TLS, h2c" : "HTTP/2 over TLS"))",
            "  APNs: POST \(server.baseURL)/3/device/<token>",
            "  FCM:  POST \(server.baseURL)/v1/projects/<project>/messages:send",
            "  Results: GET \(server.baseURL)/richpush/v1/notifications (the newest \(server.store.capacity))",
            "  Receipts: POST/GET \(server.receiptsURL)",
            "  Responses: POST/GET \(server.baseURL)/richpush/v1/responses (tap a button, reply, dismiss)",
        ]
        if let schedule = server.summaries.schedule {
            lines.append(
                "  Scheduled Summary: at \(schedule) (GET/POST \(server.baseURL)/richpush/v1/summary)")
        }
        if let caPath { lines.append("  CA certificate: \(caPath)") }
        if let record = recording.record {
            lines.append(
                "  Recording into: \(TextSanitizer.singleLine(record)) (replay with: richpush replay \(TextSanitizer.singleLine(record)))"
            )
        }
        lines.append("  App state: \(state.rawValue)" + (endpoint.bundleID.map { ", bundle ID \($0)" } ?? ""))
        let sdk = delivery.configuration.sdk
        if sdk != .requirement { lines.append("  SDK: \(sdk.name), \(sdk.title)") }
        if fixtures == nil {
            lines.append("  Fixture CDN off: \(delivery.fixtureRoot) not found (use --fixtures DIR)")
        }
        lines.append("Press Ctrl-C to stop.")
        return lines.joined(separator: "\n") + "\n"
    }

}

/// Where result lines go: standard output or the `--output` file, one whole line at a time.
final class LineSink: Sendable {
    private let descriptor: Int32
    private let path: String?
    private let lock = Mutex(false)

    init(descriptor: Int32, path: String?) {
        self.descriptor = descriptor
        self.path = path
    }

    func write(_ line: String) throws(CommandFailure) {
        guard let path else {
            try StandardStreams.output(line)
            return
        }
        let failure = lock.withLock { closed in
            closed ? nil : FileDescriptorWriter.writeAll(Array(line.utf8), to: descriptor)
        }
        if let failure {
            throw .io("\(ServeCommand.name): cannot write to \(path): \(FileDescriptorWriter.describe(failure))")
        }
    }

    /// Closes the `--output` file; later lines are dropped.
    func finish() {
        guard path != nil else { return }
        lock.withLock { closed in
            if !closed { _ = close(descriptor) }
            closed = true
        }
    }
}

/// Why `serve` stops by itself.
enum ServeStop: Sendable {
    /// `--count` pushes were printed.
    case counted
    /// The lines could not be written.
    case failed(CommandFailure)
}

/// Prints one line per push as it completes, and asks to stop once `limit` pushes were printed or a line could
/// not be written.
///
/// Deliveries only hand their line over: a thread of its own writes the lines, in order, outside any lock the
/// deliveries take, so a reader of standard output that stalls (a full pipe) never holds up a push. Lines waiting
/// for a stalled reader are kept up to `maxPendingBytes`; past that they are dropped and counted, with a note on
/// standard error (the inspection API still has every result).
final class ResultPrinter: Sendable {
    private let format: ServeCommand.Format
    private let sink: LineSink
    private let limit: Int?
    private let stop: @Sendable (ServeStop) -> Void
    private let queue = Mutex(Queue())
    private let wakeUp = DispatchSemaphore(value: 0)
    private let drained = DispatchSemaphore(value: 0)
    /// Lines handed over but not yet written may take this much memory.
    static let maxPendingBytes = 16 * 1024 * 1024

    private struct Queue {
        var lines: [String] = []
        var pendingBytes = 0
        /// Lines accepted (at most `limit`), written, and dropped for want of a reader.
        var accepted = 0
        var written = 0
        var dropped = 0
        var closed = false
        var writerRunning = false
    }

    init(format: ServeCommand.Format, sink: LineSink, limit: Int?, stop: @escaping @Sendable (ServeStop) -> Void) {
        self.format = format
        self.sink = sink
        self.limit = limit
        self.stop = stop
    }

    /// Lines written so far.
    var printed: Int { queue.withLock { $0.written } }

    func print(_ entry: ServedNotification) {
        let text = line(for: entry) + "\n"
        let (accepted, startWriter, droppedNow) = queue.withLock { queue -> (Bool, Bool, Int?) in
            if queue.closed { return (false, false, nil) }
            if let limit, queue.accepted >= limit { return (false, false, nil) }
            queue.accepted += 1
            if queue.pendingBytes + text.utf8.count > Self.maxPendingBytes {
                queue.dropped += 1
                // A dropped line counts for --count too; with nothing left to write, that may be the last one.
                if let limit, queue.accepted == limit, queue.lines.isEmpty { stop(.counted) }
                // Say so at the first drop and every thousandth after it.
                return (false, false, queue.dropped % 1000 == 1 ? queue.dropped : nil)
            }
            queue.lines.append(text)
            queue.pendingBytes += text.utf8.count
            let start = !queue.writerRunning
            queue.writerRunning = true
            return (true, start, nil)
        }
        if let droppedNow {
            StandardStreams.error(
                "\(ServeCommand.name): the reader of the results is not keeping up; \(droppedNow) line(s) dropped so far (GET /richpush/v1/notifications has them all)\n"
            )
        }
        guard accepted else { return }
        if startWriter {
            let thread = Thread { [self] in writeLines() }
            thread.name = "richpush-serve-output"
            thread.start()
        }
        wakeUp.signal()
    }

    /// The writer thread: writes the lines handed over, a batch at a time, until closed and empty.
    private func writeLines() {
        writing: while true {
            let next = queue.withLock { queue -> (batch: [String], finished: Bool) in
                if queue.lines.isEmpty { return ([], queue.closed) }
                defer {
                    queue.lines.removeAll(keepingCapacity: false)
                    queue.pendingBytes = 0
                }
                return (queue.lines, false)
            }
            if next.finished { break }
            if next.batch.isEmpty {
                wakeUp.wait()
                continue
            }
            for line in next.batch {
                do throws(CommandFailure) {
                    try sink.write(line)
                } catch {
                    stop(.failed(error))
                    queue.withLock {
                        $0.closed = true
                        $0.lines.removeAll()
                    }
                    break writing
                }
                let done = queue.withLock { queue in
                    queue.written += 1
                    return queue.written + queue.dropped
                }
                if let limit, done == limit { stop(.counted) }
            }
        }
        drained.signal()
    }

    /// No more lines are taken; waits up to `timeout` for those handed over to be written (a reader that stalls
    /// for good loses them rather than keeping richpush from exiting).
    func finish(timeout: Duration = .seconds(2)) {
        let running = queue.withLock { queue in
            queue.closed = true
            return queue.writerRunning
        }
        guard running else { return }
        wakeUp.signal()
        let milliseconds = Int(
            timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
        if drained.wait(timeout: .now() + .milliseconds(milliseconds)) == .timedOut {
            let left = queue.withLock { $0.lines.count }
            StandardStreams.error("\(ServeCommand.name): \(left) result line(s) not written: nothing reads them\n")
        }
    }

    func line(for entry: ServedNotification) -> String {
        switch format {
        case .jsonl:
            return JSONWriter.string(entry.jsonValue)
        case .text:
            let summary =
                entry.endpointRejection.map {
                    "rejected: \($0.reason) (\(TextSanitizer.singleLine($0.detail, limit: 100)))"
                } ?? TextReporter.summary(of: entry.result)
            let token = TextSanitizer.singleLine(entry.apns.token, limit: 12)
            return [
                "\(entry.status)", pad(entry.transport.rawValue, 9), pad(entry.result.appState.rawValue, 10),
                pad(entry.result.style.rawValue, 6), pad(token, 12), summary,
            ].joined(separator: "  ")
        }
    }

    private func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }
}
