import ArgumentParser
import Foundation
import Logging
import RichPushNetwork
import ServiceLifecycle
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
        help: ArgumentHelp("Folder to serve (default: payloads/images, else the installed images).", valueName: "DIR"))
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
    var fixtureRoot: String { fixtures ?? root ?? InstalledFiles.defaultFixtureRoot }

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535") }
        if fixtures != nil, root != nil {
            throw ValidationError("--root is the old name of --fixtures; give only --fixtures")
        }
    }

    func run() async throws {
        let logger = StandardStreams.logger(label: "richpush.fixtures", verbose: verbose)
        let command = "richpush serve-fixtures"
        let caFile = try CACertificateFile.check(caOut, command: command)
        let root = fixtureRoot
        let port = self.port
        let outcome = try await CommandLifecycle.run(logger: logger) { parts -> @Sendable () async throws -> Void in
            let cdn: FixtureCDN
            do {
                cdn = try await FixtureCDN.start(root: URL(fileURLWithPath: root), port: port, logger: logger)
            } catch let error as FixtureRootError {
                throw CommandFailure.io("\(command): \(error.message)")
            } catch {
                throw CommandFailure.io("\(command): could not start on 127.0.0.1:\(port): \(error)")
            }
            parts.add(cdn)
            // The CA goes where asked, else to a new temporary file removed on exit, so the curl line always works.
            let caPath: String
            do throws(OutputFile.Failure) {
                caPath = try CACertificateFile.write(
                    cdn.caCertificatePEM, to: caFile, temporaryFor: .fixtures, parts: parts)
            } catch {
                throw CommandFailure.io("\(command): cannot write the CA certificate to \(error.path): \(error.reason)")
            }
            return {
                try StandardStreams.output(
                    """
                    Fixture CDN serving \(cdn.root.path)
                      https://\(FixtureCDN.host):\(cdn.port)/   (listening on 127.0.0.1:\(cdn.port))
                      CA certificate: \(caPath)
                    Try:
                      \(cdn.curlExample(path: "cat.png", caFile: caPath))
                      \(cdn.curlExample(path: "cat.png?status=404", caFile: caPath))
                    Press Ctrl-C to stop.

                    """)
                // Serves until a signal stops the command.
                try await gracefulShutdown()
            }
        }
        if case .interrupted(let signal) = outcome {
            StandardStreams.error("\(command): stopped (\(signal))\n")
        }
    }
}
