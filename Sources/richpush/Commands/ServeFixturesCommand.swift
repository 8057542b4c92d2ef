import ArgumentParser
import Foundation
import Logging
import RichPushNetwork
import UnixSignals

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `richpush serve-fixtures`: runs the HTTPS fixture CDN standalone until SIGINT, SIGTERM or SIGHUP.
struct ServeFixtures: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve-fixtures",
        abstract: "Serve the fixture images over HTTPS as https://\(FixtureCDN.host), with fault injection.",
        discussion: """
            Listens on 127.0.0.1 with a certificate chain generated at start (SAN \(FixtureCDN.host) and \
            127.0.0.1). Faults are query parameters and combine: delay=6s|250ms, status=404, type=text/html \
            (type= omits Content-Type), redirect=http|https, drip=2KB (bytes per second, no Content-Length), \
            pad=11MB, truncate=100.
            """
    )

    @Option(help: "TCP port on 127.0.0.1 (0 picks a free port).")
    var port: Int = 0

    @Option(
        name: .customLong("fixtures"),
        help: ArgumentHelp("Folder to serve (default: payloads/images).", valueName: "DIR"))
    var fixtures: String?

    /// The option's earlier name, still accepted so existing scripts keep working.
    @Option(name: .customLong("root"), help: .hidden)
    var root: String?

    @Option(
        name: .customLong("ca-out"),
        help: ArgumentHelp(
            "Write the CA certificate (PEM) to FILE, for curl --cacert (default: a temporary file removed on exit).",
            valueName: "FILE"))
    var caOut: String?

    @Flag(help: "Log every request to stderr.")
    var verbose = false

    /// The folder served: `--fixtures`, or `--root` as scripts written before the rename say.
    var fixtureRoot: String { fixtures ?? root ?? "payloads/images" }

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535") }
        if fixtures != nil, root != nil {
            throw ValidationError("--root is the old name of --fixtures; give only --fixtures")
        }
    }

    func run() async throws {
        let logger = StandardStreams.logger(label: "richpush.fixtures", verbose: verbose)

        // The first INT, TERM or HUP stops the server; a second one while it stops ends the process at once.
        let (stopRequests, requestStop) = AsyncStream.makeStream(of: UnixSignal.self)
        await TerminationSignals.handle { signal in
            if case .terminated = requestStop.yield(signal) { TerminationCleanup.exit(128 + signal.rawValue) }
            requestStop.finish()
        }

        // Checked before the server starts, without touching what the file holds.
        let caFile: OutputFile?
        do {
            caFile = try caOut.map { path throws(OutputFile.Failure) in try OutputFile(checking: path) }
        } catch {
            Self.printError(
                "richpush serve-fixtures: cannot write the CA certificate to \(error.path): \(error.reason)")
            throw ExitCode(2)
        }

        let cdn: FixtureCDN
        do {
            cdn = try await FixtureCDN.start(root: URL(fileURLWithPath: fixtureRoot), port: port, logger: logger)
        } catch let error as FixtureRootError {
            Self.printError("richpush serve-fixtures: \(error.message)")
            throw ExitCode(2)
        } catch {
            Self.printError("richpush serve-fixtures: could not start on 127.0.0.1:\(port): \(error)")
            throw ExitCode(1)
        }

        // The CA goes where asked, else to a new temporary file removed on exit, so the curl line always works.
        let caPath: String
        do {
            if let caFile {
                try caFile.write(cdn.caCertificatePEM)
                caPath = caFile.path
            } else {
                caPath = try OutputFile.createTemporary(
                    prefix: "richpush-fixture-ca-\(cdn.port)-", suffix: ".pem", text: cdn.caCertificatePEM)
            }
        } catch {
            Self.printError(
                "richpush serve-fixtures: cannot write the CA certificate to \(error.path): \(error.reason)")
            await cdn.shutdown()
            throw ExitCode(2)
        }
        let temporaryCA = caFile == nil ? caPath : nil
        let removeCA = TerminationCleanup.register {
            if let temporaryCA { unlink(temporaryCA) }
        }

        StandardStreams.output(
            """
            Fixture CDN serving \(cdn.root.path)
              https://\(FixtureCDN.host):\(cdn.port)/   (listening on 127.0.0.1:\(cdn.port))
              CA certificate: \(caPath)
            Try:
              \(cdn.curlExample(path: "cat.png", caFile: caPath))
              \(cdn.curlExample(path: "cat.png?status=404", caFile: caPath))
            Press Ctrl-C to stop.

            """)

        var signals = stopRequests.makeAsyncIterator()
        let signal = await signals.next()
        await cdn.shutdown()
        removeCA.remove()
        if let temporaryCA { unlink(temporaryCA) }
        Self.printError("richpush serve-fixtures: stopped (\(signal.map(String.init(describing:)) ?? "end"))")
    }

    private static func printError(_ message: String) {
        StandardStreams.error(message + "\n")
    }
}
