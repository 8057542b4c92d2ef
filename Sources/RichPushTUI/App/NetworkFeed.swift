public import RichPushCore
import Synchronization

/// Pushes that arrive over the network (a push endpoint running next to the notification center), and the
/// app state they arrive in. The endpoint calls it from any thread; the run loop turns its news into actions,
/// so the screen's state still changes only in `reduce`.
///
/// ```swift
/// let feed = NetworkFeed(appState: .background, listening: "listening 127.0.0.1:2197")
/// let server = try await PushServer.start(
///     configuration: configuration, appState: { feed.appState }, phone: { feed.phone }, logger: logger,
///     onProgress: { attributes, progress in feed.progress(pushID: attributes.id, source: "APNs push", progress) },
///     onResult: { served in feed.finished(pushID: served.apns.id, source: "APNs push", result: served.result) })
/// server.startDeliveries(through: system)
/// ```
public final class NetworkFeed: Sendable {
    private let header: Mutex<String?>
    private let helpLines: Mutex<[String]>
    let actions: AsyncStream<Action>
    private let continuation: AsyncStream<Action>.Continuation
    private let currentAppState: Mutex<AppState>
    private let currentPhone = Mutex<DeviceState?>(nil)

    public init(appState: AppState, listening: String? = nil) {
        header = Mutex(listening)
        helpLines = Mutex([])
        currentAppState = Mutex(appState)
        (actions, continuation) = AsyncStream.makeStream(of: Action.self)
    }

    /// What the header says, e.g. "listening 127.0.0.1:2197" (set before the notification center runs); nil
    /// shows nothing.
    public var listening: String? {
        get { header.withLock { $0 } }
        set { header.withLock { $0 = newValue } }
    }

    /// What the help overlay says about the endpoint, e.g. its URL and the CA certificate's path.
    public var help: [String] {
        get { helpLines.withLock { $0 } }
        set { helpLines.withLock { $0 = newValue } }
    }

    /// The app state on screen now: the state a push arriving now is delivered in.
    public var appState: AppState { currentAppState.withLock { $0 } }

    /// The phone on screen now (the header's keys change it): the phone a push arriving now is delivered on; nil
    /// until the notification center runs.
    public var phone: DeviceState? { currentPhone.withLock { $0 } }

    /// News of an accepted push in flight; the first for `pushID` lists it, named by `source` (e.g. "APNs push 1f2e…").
    public func progress(pushID: String, source: PushSource, _ progress: DeliveryProgress) {
        continuation.yield(.networkPushProgress(pushID: pushID, source: source, progress))
    }

    /// The end of a push: its result, or for a request the endpoint refused, why (e.g. "BadTopic: …").
    public func finished(pushID: String, source: PushSource, result: DeliveryResult, rejection: String? = nil) {
        continuation.yield(.networkPushFinished(pushID: pushID, source: source, result, rejection: rejection))
    }

    /// A one-line note about the endpoint (e.g. "recording stopped: …"), for the status line.
    public func note(_ text: String) {
        continuation.yield(.endpointNote(text))
    }

    /// No more pushes will come.
    public func finish() { continuation.finish() }

    func appStateChanged(_ appState: AppState) {
        currentAppState.withLock { $0 = appState }
    }

    func phoneChanged(_ phone: DeviceState) {
        currentPhone.withLock { $0 = phone }
    }
}
