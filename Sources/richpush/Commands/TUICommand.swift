import ArgumentParser
import Foundation
import Logging
import RichPushCodecs
import RichPushCore
import RichPushFiles
import RichPushNetwork
import RichPushServe
import RichPushTUI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

struct TUICommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tui",
        abstract: "Open the notification center: send payloads, switch the app state, inspect the results.",
        discussion: """
            Pick a payload from the library and press Enter to send it through the emulated device, in the \
            current app state (f foreground, b background, c closed, s cycles). Notifications arrive newest \
            first, with live download progress; Enter opens one, ? lists every key, q quits.

            Pushes also arrive over the network: the APNs (POST /3/device/<token>) and FCM HTTP v1 endpoints of \
            `richpush serve` listen on --listen (127.0.0.1:2197 by default; --no-listen turns them off), over \
            HTTP/2 with TLS from a CA generated at start (--ca-out writes it). Each push is delivered in the app \
            state on screen when it arrives; refused requests are listed with the reason the sender got:
              richpush push payloads/rich/png-background.json --to https://127.0.0.1:2197 --cacert ca.pem

            Images at https://fixtures.richpush.test/ are served by the embedded fixture CDN from --fixtures.
            This is what `richpush` with no arguments runs.
            """
    )

    @Argument(help: ArgumentHelp("Folder of payloads to offer (default: payloads).", valueName: "DIR"))
    var folder: String?

    /// `--payloads DIR`, the earlier spelling of the argument; still accepted for one release, with a note on the
    /// status line.
    @Option(name: .customLong("payloads"), help: .hidden)
    var deprecatedPayloads: String?

    /// The folder offered: the argument, or `--payloads` as scripts written before the change say.
    var payloads: String { folder ?? deprecatedPayloads ?? InstalledFiles.defaultPayloads }

    @Option(help: "App state at launch.")
    var state: AppState = .background

    @Option(
        help: ArgumentHelp("Write the extension's log to FILE (nothing is logged to the terminal).", valueName: "FILE"))
    var log: String?

    @Flag(name: .customLong("no-listen"), help: "Do not receive pushes over the network.")
    var noListen = false

    @Option(
        help: ArgumentHelp(
            "Draw attachment images: auto (when the terminal has colours and UTF-8), symbols (always), none (text only).",
            valueName: "MODE"))
    var images: ImageMode = .auto

    @OptionGroup var endpoint: EndpointOptions

    @OptionGroup var delivery: DeliveryOptions

    @OptionGroup var recording: RecordOptions

    func validate() throws {
        if folder != nil, deprecatedPayloads != nil {
            throw ValidationError("--payloads is the old spelling of the DIR argument; give the folder once")
        }
        if delivery.allSDKs {
            throw ValidationError("--sdk all is for replay; the notification center cycles SDKs with p")
        }
        if delivery.allProcessModes {
            throw ValidationError(
                "--extension-process all is for replay; the notification center runs the extension one way at a time")
        }
        if noListen {
            if endpoint.caOut != nil { throw ValidationError("--no-listen has no certificate: drop --ca-out") }
            if endpoint.providerKey.authKey != nil {
                throw ValidationError("--no-listen checks no provider tokens: drop --auth-key")
            }
            if endpoint.listen != nil { throw ValidationError("--no-listen and --listen contradict each other") }
        }
    }

    /// The status line's word on `--payloads` (a note on standard error would be drawn over at once).
    var deprecationNote: String? {
        deprecatedPayloads == nil ? nil : "--payloads is deprecated: give the folder as the argument (richpush tui DIR)"
    }

    func run() async throws {
        guard (try? FileNode.following(payloads).get())?.isDirectory == true else {
            throw CommandFailure.io("richpush: \(payloads): no such folder (choose one: richpush tui DIR)")
        }
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else {
            throw CommandFailure.usage(
                "richpush: the notification center needs an interactive terminal; for scripts use `richpush replay \(payloads)`"
            )
        }
        let signingKey = noListen ? nil : try endpoint.providerKey.signingKey(command: "richpush")
        let logger: Logger
        do {
            logger = try Self.makeLogger(file: log)
        } catch {
            throw CommandFailure.io("richpush: cannot write the log to \(log ?? ""): \(error.localizedDescription)")
        }
        // The recorder's notes go to the footer once the screen is up (a line on standard error would be drawn over).
        let notes = RecorderNotes()
        let recorder = try recording.recorder(
            command: "richpush", delivery: delivery, note: { notes.say($0) })
        let recentPushes = noListen ? nil : RecentPushes(recorder: recorder)
        let command = self
        // A team's extension that does not build is one error before the screen opens.
        let built = try await delivery.buildExtension(command: "richpush")
        let outcome = try await CommandLifecycle.run(logger: logger) { parts in
            // Without the fixture folder the CDN cannot start; fixture URLs then fail as unknown hosts do.
            let fixtures =
                FileNode.exists(command.delivery.fixtureRoot) ? command.delivery.fixtureRoot : nil
            if fixtures == nil {
                logger.warning("no fixture folder at \(command.delivery.fixtureRoot); the fixture CDN is off")
            }
            let environment = try await EmulatorEnvironment.start(
                fixtureRoot: fixtures, customExtension: built,
                extensionMemoryBytes: command.delivery.configuration.extensionMemoryBytes, logger: logger, in: parts,
                command: "richpush")
            let configuration = command.delivery.configuration
            // Added before the listener, so it stops after it and writes what its last pushes queued.
            if let recorder { parts.add(recorder) }
            let endpoint = await command.startEndpoint(
                parts: parts, signingKey: signingKey, recording: recentPushes, logger: logger)
            notes.feed = endpoint.feed
            // The system is made once the endpoint runs: a receipt to the notification center's own endpoint
            // trusts the CA it generated, on the port it got. Pushes accepted until then wait.
            let receiptSender = try ServerReceiptRouter.sender(
                for: endpoint.server, environment: environment, parts: parts, logger: logger, command: "richpush")
            let system = environment.system(
                configuration: configuration, logger: logger, receiptSender: receiptSender)
            endpoint.server?.startDeliveries(through: system)
            let app = NotificationCenterApp(
                library: PayloadLibrary(root: command.payloads, extensionFolder: command.delivery.extensionFolder),
                delivering: NotificationCenterDelivery(
                    system: system, store: environment.store, customExtension: command.delivery.extensionFolder,
                    recorder: recorder, recentPushes: recentPushes),
                initialState: command.state, configuration: configuration, logger: logger, network: endpoint.feed,
                initialStatus: [command.deprecationNote, endpoint.status].compactMap { $0 }.nilIfEmpty?
                    .joined(separator: " · "),
                images: command.images, imageLoader: CodecImageLoader())
            return {
                do {
                    try await app.run()
                } catch let error as TerminalError {
                    throw CommandFailure.io("richpush: \(error)")
                }
            }
        }
        if case .interrupted = outcome {
            // The notification center quits on a stop signal as on q: the terminal restored, nothing left behind.
            return
        }
    }

    /// The push endpoint the notification center listens on, or why it does not (the status line says it;
    /// the notification center runs either way). The server and its CA file are parts of the command.
    private func startEndpoint(
        parts: CommandLifecycle.Parts, signingKey: ProviderTokenVerifier.SigningKey?, recording: RecentPushes?,
        logger: Logger
    ) async -> (feed: NetworkFeed?, status: String?, server: PushServer?) {
        guard !noListen else { return (nil, nil, nil) }
        let address = endpoint.listen ?? .standard
        let (host, port) = (address.host, address.port)
        let caFile: OutputFile?
        do {
            caFile = try CACertificateFile.check(endpoint.caOut, command: "richpush")
        } catch {
            return (nil, "Not listening: \(error.description.dropFirst("richpush: ".count))", nil)
        }
        let shownHost = address.shownHost
        // The feed is made first, so no push is lost; its header names the port the server really got. It ends
        // once the server has stopped (parts stop in the reverse order of their start).
        let feed = NetworkFeed(appState: state)
        parts.add(ShutdownAction { feed.finish() })
        let server: PushServer
        do {
            var configuration = PushServerConfiguration(
                host: host, port: port, bundleID: endpoint.bundleID, unregisteredTokens: endpoint.unregistered,
                signingKey: signingKey)
            configuration.shutdownGrace = .seconds(1)
            // Quitting does not wait for pushes still in flight (an image may take the whole extension budget): the
            // server stops accepting, and their deliveries are abandoned.
            configuration.abandonsDeliveriesOnShutdown = true
            configuration.recorder = recording
            server = try await PushServer.start(
                configuration: configuration, appState: { feed.appState }, phone: { feed.phone }, logger: logger,
                onProgress: { attributes, progress in
                    feed.progress(pushID: attributes.id, source: Self.source(of: attributes), progress)
                },
                onResult: { served in
                    feed.finished(
                        pushID: served.apns.id, source: Self.source(of: served.apns, transport: served.transport),
                        result: served.result,
                        rejection: served.endpointRejection.map { "\($0.status) \($0.reason): \($0.detail)" })
                })
        } catch {
            return (nil, "Not listening on \(shownHost):\(port): \(error)", nil)
        }
        parts.add(server)
        feed.listening = "listening \(shownHost):\(server.port)"
        feed.help = [
            "Pushes: APNs POST \(server.baseURL)/3/device/<token>",
            "        FCM POST \(server.baseURL)/v1/projects/<project>/messages:send",
        ]
        guard let pem = server.caCertificatePEM else { return (feed, nil, server) }
        do {
            let path = try CACertificateFile.write(
                pem, to: caFile, temporaryFor: .notificationCenter, parts: parts)
            feed.help.append("CA certificate (curl --cacert): \(path)" + (caFile == nil ? ", removed on exit" : ""))
            return (feed, "Push to \(server.baseURL) (CA certificate: \(path))", server)
        } catch {
            return (
                feed, "Push to \(server.baseURL); cannot write the CA certificate to \(error.path): \(error.reason)",
                server
            )
        }
    }

    /// How a push is named in the list ("APNs push 1a2b3c4…" or "FCM push"), and what its request said.
    static func source(of attributes: APNsAttributes, transport: DeliveryTransport? = nil) -> PushSource {
        // FCM message IDs ("0:1700…%…") are never UUIDs, which APNs push IDs always are.
        let isFCM = transport.map { $0 == .fcmHTTP } ?? attributes.id.contains(":")
        let token = TextSanitizer.singleLine(attributes.token, limit: 8)
        let name = isFCM ? "FCM push" : token.isEmpty ? "APNs push" : "APNs push \(token)"
        var details = [
            PushSource.Detail("Endpoint", isFCM ? "FCM HTTP v1" : "APNs provider API (HTTP/2)"),
            PushSource.Detail(isFCM ? "Message" : "apns-id", attributes.id),
        ]
        if !attributes.token.isEmpty { details.append(.init("Token", attributes.token)) }
        if let topic = attributes.topic { details.append(.init(isFCM ? "Target" : "Topic", topic)) }
        if let pushType = attributes.pushType { details.append(.init("Push type", pushType)) }
        if let priority = attributes.priority { details.append(.init("Priority", "\(priority)")) }
        if let expiration = attributes.expiration { details.append(.init("Expiration", "\(expiration)")) }
        if let collapseID = attributes.collapseID { details.append(.init("Collapse ID", collapseID)) }
        if let auth = attributes.auth { details.append(.init("Auth", auth)) }
        return PushSource(name: name, details: details)
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

extension Array {
    /// Nil for an empty array.
    fileprivate var nilIfEmpty: Self? { isEmpty ? nil : self }
}
