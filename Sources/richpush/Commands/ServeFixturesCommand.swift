import ArgumentParser
import Dispatch
import Foundation
import Logging
import RichPushNetwork

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `richpush serve-fixtures`: runs the HTTPS fixture CDN standalone until SIGINT/SIGTERM.
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

    @Option(help: "Directory to serve.")
    var root: String = "payloads/images"

    @Option(name: .customLong("ca-out"), help: "Write the CA certificate (PEM) to this file, for curl --cacert.")
    var caOut: String?

    @Flag(help: "Log every request to stderr.")
    var verbose = false

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535") }
    }

    func run() async throws {
        let logger = StandardStreams.logger(label: "richpush.fixtures", verbose: verbose)

        let cdn: FixtureCDN
        do {
            cdn = try await FixtureCDN.start(root: URL(fileURLWithPath: root), port: port, logger: logger)
        } catch let error as FixtureRootError {
            Self.printError("richpush serve-fixtures: \(error.message)")
            throw ExitCode(2)
        } catch {
            Self.printError("richpush serve-fixtures: could not start on 127.0.0.1:\(port): \(error)")
            throw ExitCode(1)
        }

        // The CA goes where asked, else to a temporary file removed on exit, so the curl line always works.
        let caPath =
            caOut
            ?? FileManager.default.temporaryDirectory
            .appendingPathComponent("richpush-fixture-ca-\(cdn.port).pem").path
        do {
            try cdn.caCertificatePEM.write(toFile: caPath, atomically: true, encoding: .utf8)
        } catch {
            Self.printError("richpush serve-fixtures: cannot write the CA certificate to \(caPath): \(error)")
            await cdn.shutdown()
            throw ExitCode(2)
        }

        print(
            """
            Fixture CDN serving \(cdn.root.path)
              https://\(FixtureCDN.host):\(cdn.port)/   (listening on 127.0.0.1:\(cdn.port))
              CA certificate: \(caPath)
            Try:
              \(cdn.curlExample(path: "cat.png", caFile: caPath))
              \(cdn.curlExample(path: "cat.png?status=404", caFile: caPath))
            Press Ctrl-C to stop.
            """)
        fflush(nil)  // all streams: naming `stdout` is not concurrency-safe in Swift 6

        let signal = await Self.waitForTerminationSignal()
        await cdn.shutdown()
        if caOut == nil { try? FileManager.default.removeItem(atPath: caPath) }
        Self.printError("richpush serve-fixtures: stopped (\(signal))")
    }

    private static func printError(_ message: String) {
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }

    /// Suspends until SIGINT or SIGTERM arrives and returns its name.
    private static func waitForTerminationSignal() async -> String {
        let (stream, continuation) = AsyncStream<String>.makeStream()
        var sources: [any DispatchSourceSignal] = []
        for (number, name) in [(SIGINT, "SIGINT"), (SIGTERM, "SIGTERM")] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { continuation.yield(name) }
            source.resume()
            sources.append(source)
        }
        var iterator = stream.makeAsyncIterator()
        let received = await iterator.next() ?? "end"
        for source in sources { source.cancel() }
        return received
    }
}
