public import Foundation
public import RichPushCore

/// One push as the recorder gets it: what the sender sent (the body, and for a refused request the method, path
/// and the headers that decide a refusal) and what came of it.
public struct RecordedPush: Sendable {
    public enum Outcome: Sendable {
        /// Accepted and delivered: the device's result.
        case delivered(DeliveryResult)
        /// Refused by the endpoint, as the sender was told.
        case refused(EndpointRejection)
    }

    public var outcome: Outcome
    public var transport: DeliveryTransport
    public var attributes: APNsAttributes
    /// The body as received (an FCM request's whole document).
    public var body: [UInt8]
    public var method: String
    public var path: String
    /// The request's headers; the recorder keeps only ``keptHeaders`` of them.
    public var headers: [(name: String, value: String)]
    public var appState: AppState
    public var receivedAt: Date
    /// The endpoint refused the token as unregistered (`--unregistered`).
    public var unregistered: Bool
    /// The endpoint's `--bundle-id`, for a refusal that depends on it.
    public var bundleID: String?
    /// Settings the payload already had (a library file's own `given`), kept unless the recording says otherwise.
    public var given: JSONObject = [:]

    /// The headers a refused request is recorded with: those the endpoint's checks read, never `authorization`.
    public static let keptHeaders: Set<String> = [
        "apns-id", "apns-push-type", "apns-priority", "apns-expiration", "apns-collapse-id", "apns-topic",
    ]

    public init(
        outcome: Outcome, transport: DeliveryTransport, attributes: APNsAttributes, body: [UInt8],
        method: String = "POST",
        path: String = "", headers: [(name: String, value: String)] = [], appState: AppState,
        receivedAt: Date = Date(), unregistered: Bool = false, bundleID: String? = nil
    ) {
        self.bundleID = bundleID
        self.outcome = outcome
        self.transport = transport
        self.attributes = attributes
        self.body = body
        self.method = method
        self.path = path
        self.headers = headers.filter { Self.keptHeaders.contains($0.name.lowercased()) }
        self.appState = appState
        self.receivedAt = receivedAt
        self.unregistered = unregistered
    }

    /// The id its name carries: the `apns-id` answered with, or the FCM message id.
    public var id: String { attributes.id }
}
