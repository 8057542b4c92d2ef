import Foundation
import Hummingbird
import HummingbirdCore
public import Logging
import NIOCore
import NIOSSL
public import RichPushCore
public import RichPushNetwork
import ServiceLifecycle
import Synchronization

/// How the push server listens and what it accepts.
public struct PushServerConfiguration: Sendable {
    /// Address to bind, `127.0.0.1` by default.
    public var host: String
    /// TCP port; 0 picks a free one.
    public var port: Int
    /// HTTP/2 without TLS (prior knowledge, h2c) instead of TLS with ALPN h2 and http/1.1.
    public var plaintext: Bool
    /// The app the emulated device's tokens belong to (`--bundle-id`).
    public var bundleID: String?
    /// Device or registration tokens answered as no longer valid (`--unregistered`).
    public var unregisteredTokens: [String]
    /// The team's key, to verify provider token signatures (`--auth-key --key-id --team-id`).
    public var signingKey: ProviderTokenVerifier.SigningKey?
    /// Results the inspection API keeps (the newest).
    public var resultCapacity: Int
    /// Display receipts `GET /richpush/v1/receipts` keeps (the newest).
    public var receiptCapacity: Int
    /// How long requests in flight may take to finish once the server is asked to stop.
    public var shutdownGrace: Duration = .seconds(5)
    /// Whether a shutdown cancels the deliveries still in flight instead of waiting for them: for a front end that
    /// is closing (the notification center), with nobody left to show them to.
    public var abandonsDeliveriesOnShutdown = false
    /// Writes every push answered as a replayable payload (`--record DIR`); nil records nothing.
    public var recorder: (any PushRecording)?
    /// When the Scheduled Summary is delivered by itself (`--summary-at`); nil: only on request.
    public var summarySchedule: SummarySchedule?

    public static let defaultPort = 2197

    public init(
        host: String = "127.0.0.1", port: Int = PushServerConfiguration.defaultPort, plaintext: Bool = false,
        bundleID: String? = nil, unregisteredTokens: [String] = [],
        signingKey: ProviderTokenVerifier.SigningKey? = nil, resultCapacity: Int = ResultStore.defaultCapacity,
        receiptCapacity: Int = ReceiptStore.defaultCapacity
    ) {
        self.host = host
        self.port = port
        self.plaintext = plaintext
        self.bundleID = bundleID
        self.unregisteredTokens = unregisteredTokens
        self.signingKey = signingKey
        self.resultCapacity = resultCapacity
        self.receiptCapacity = receiptCapacity
    }
}

/// The live endpoints: an APNs provider API and an FCM HTTP v1 API on one HTTP/2 server (Hummingbird), each
/// accepted push delivered through the ``NotificationSystem`` in the app state of its arrival, every push (refused
/// ones too) recorded in a bounded ``ResultStore`` that `GET /richpush/v1/notifications` shows.
///
/// It starts in two steps, so the system can be made from what the server's start decided: ``start(configuration:appState:logger:onProgress:onResult:)``
/// binds the port and generates the CA (pushes accepted from then on wait), then ``startDeliveries(through:)``
/// delivers them through a system whose receipt sender trusts that CA on that port.
///
/// ```swift
/// let server = try await PushServer.start(
///     configuration: PushServerConfiguration(port: 0, bundleID: "com.example.app"), appState: { .background },
///     logger: logger) { entry in print(entry.result.style) }
/// server.startDeliveries(through: NotificationSystem(downloader: downloader, receiptSender: sender))
/// // curl --http2 --cacert ca.pem https://localhost:\(server.port)/3/device/<token> …
/// await server.shutdown()
/// ```
public final class PushServer: Sendable {
    public let configuration: PushServerConfiguration
    /// The CA that signed the server's certificate, in PEM; nil with `plaintext`.
    public let caCertificatePEM: String?
    public let store: ResultStore
    /// The display receipts received at `POST /richpush/v1/receipts`.
    public let receipts: ReceiptStore
    /// The person's answers given at `POST /richpush/v1/responses`.
    public let responses: ResponseStore
    /// The Scheduled Summary's notifications and deliveries (`/richpush/v1/summary`).
    public let summaries: SummaryStore
    private let server: LocalHTTPServer
    private let deliveries: DeliveryQueue
    /// The deliveries' task once ``startDeliveries(through:)`` began them (accepted pushes wait until then), and
    /// whether ``shutdown()`` was called.
    private let deliveryState = Mutex<(task: Task<Void, Never>?, stopped: Bool)>((nil, false))

    /// The port the server really listens on.
    public var port: Int { server.port }

    private init(
        configuration: PushServerConfiguration, server: LocalHTTPServer, caCertificatePEM: String?,
        store: ResultStore, receipts: ReceiptStore, responses: ResponseStore, summaries: SummaryStore,
        deliveries: DeliveryQueue
    ) {
        self.configuration = configuration
        self.server = server
        self.caCertificatePEM = caCertificatePEM
        self.store = store
        self.receipts = receipts
        self.responses = responses
        self.summaries = summaries
        self.deliveries = deliveries
    }

    /// The base URL senders use: `https://localhost:2197` (or `http://…` with plaintext).
    public var baseURL: String {
        let host = configuration.host == "127.0.0.1" ? "localhost" : configuration.host
        let bracketed = host.contains(":") ? "[\(host)]" : host
        return "\(configuration.plaintext ? "http" : "https")://\(bracketed):\(port)"
    }

    /// The display-receipt endpoint: `https://localhost:2197/richpush/v1/receipts`.
    public var receiptsURL: String { baseURL + PushResponder.receiptsPath }

    /// Routes for a receipt sender, so receipts to this server itself (`--receipt-url` on its receipts endpoint)
    /// reach it and trust its CA, for `https://localhost:PORT`, `https://127.0.0.1:PORT` and the certificate's
    /// `--host` name; each goes to the loopback address. Empty with `plaintext`, where there is no https.
    public var receiptHostMappings: [FixtureHostMapping] {
        guard let caCertificatePEM else { return [] }
        let name = ServerCertificates.certificateName(for: configuration.host)
        // Where this process reaches the server: the address it is bound to, or loopback for a wildcard.
        let host = configuration.host
        let address: String
        switch host {
        case "::", "::1": address = "::1"
        case "0.0.0.0", "localhost": address = "127.0.0.1"
        default: address = host.allSatisfy { $0.isNumber || $0 == "." } || host.contains(":") ? host : "127.0.0.1"
        }
        return Set([name, "localhost", "127.0.0.1"]).sorted().map {
            FixtureHostMapping(host: $0, address: address, port: port, caCertificatePEM: caCertificatePEM)
        }
    }

    /// Binds and returns once the server accepts connections; accepted pushes wait for
    /// ``startDeliveries(through:)``. `appState` is asked once per push, when it arrives; `onResult` is called once
    /// per recorded push (refused requests at once, accepted ones when delivered); `onProgress` tells, for front
    /// ends that show pushes in flight, how each accepted push is doing (its `apns.id` names it; `.limits` comes
    /// first).
    public static func start(
        configuration: PushServerConfiguration, appState: @escaping @Sendable () -> AppState,
        phone: @escaping @Sendable () -> DeviceState? = { nil }, logger: Logger,
        onProgress: (@Sendable (APNsAttributes, DeliveryProgress) -> Void)? = nil,
        onResult: @escaping @Sendable (ServedNotification) -> Void = { _ in }
    ) async throws -> PushServer {
        let store = ResultStore(capacity: configuration.resultCapacity)
        let receipts = ReceiptStore(capacity: configuration.receiptCapacity)
        let responses = ResponseStore(capacity: configuration.resultCapacity)
        let summaries = SummaryStore(
            capacity: configuration.resultCapacity, schedule: configuration.summarySchedule)
        let deliveries = DeliveryQueue(
            store: store, responses: responses, summaries: summaries, onResult: onResult, onProgress: onProgress)
        let responder = PushResponder(
            apns: APNsRequestValidator(
                bundleID: configuration.bundleID, unregisteredTokens: configuration.unregisteredTokens,
                tokenVerifier: ProviderTokenVerifier(signingKey: configuration.signingKey)),
            fcm: FCMRequestValidator(unregisteredTokens: configuration.unregisteredTokens),
            deliveries: deliveries, store: store, receipts: receipts, responses: responses, summaries: summaries,
            appState: appState, phone: phone,
            logger: logger,
            recorder: configuration.recorder
        ).router.buildResponder()

        let server: HTTPServerBuilder
        let caPEM: String?
        if configuration.plaintext {
            server = PushServerChannel.builder(tlsConfiguration: nil)
            caPEM = nil
        } else {
            let authority = try ServerCertificates.generate(host: configuration.host)
            server = PushServerChannel.builder(tlsConfiguration: try authority.serverTLSConfiguration())
            caPEM = authority.caCertificatePEM
        }

        let local: LocalHTTPServer
        do {
            local = try await LocalHTTPServer.start(
                responder: responder, server: server, host: configuration.host, port: configuration.port,
                name: "richpush", grace: configuration.shutdownGrace, logger: logger)
        } catch {
            throw PushServerError(error.description)
        }
        return PushServer(
            configuration: configuration, server: local, caCertificatePEM: caPEM, store: store, receipts: receipts,
            responses: responses, summaries: summaries, deliveries: deliveries)
    }

    /// Delivers the pushes accepted so far, and every later one, through `system`. Called once; a later call, or
    /// one after ``shutdown()``, changes nothing.
    public func startDeliveries(through system: NotificationSystem) {
        deliveryState.withLock { state in
            guard state.task == nil, !state.stopped else { return }
            state.task = Task { [deliveries] in await deliveries.run(system: system) }
        }
    }

    /// Stops accepting, lets requests in flight finish (at most the configuration's `shutdownGrace`), then waits
    /// for the deliveries already accepted, so every 200 the server answered ends up in the results; or,
    /// with the configuration's `abandonsDeliveriesOnShutdown`, cancels them. Pushes still waiting because
    /// deliveries never started are abandoned.
    public func shutdown() async {
        let abandoningDeliveries = configuration.abandonsDeliveriesOnShutdown
        let (task, wasStopped) = deliveryState.withLock { state in
            defer { state.stopped = true }
            return state
        }
        if abandoningDeliveries { task?.cancel() }
        await server.shutdown()
        deliveries.finish()
        if let task {
            await task.value
        } else if !wasStopped {
            await deliveries.abandonWaiting()
        }
    }
}

extension PushServer: StoppedAtShutdown {}

/// The server could not start.
public struct PushServerError: Error, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}
