/// Everything one delivery starts from, the same for every front end: the payload (or why it was not read), where
/// it came from, the app state it arrives in, and its own settings. Replay and the notification center make it
/// from a payload file (`LoadedPayload` in RichPushLibrary), serve from a push request.
public struct DeliveryInput: Sendable, Equatable {
    /// The payload's bytes, or the size of a file too large to be a payload, which was not read.
    public enum Payload: Sendable, Equatable {
        case bytes([UInt8])
        case oversized(bytes: Int)
    }

    public var payload: Payload
    public var origin: DeliveryOrigin
    public var appState: AppState
    /// The payload's own settings (`given`), applied over the system's configuration; their `appState` has
    /// already been chosen into ``appState`` by the front end.
    public var settings: DeliveryOverrides

    public init(payload: Payload, origin: DeliveryOrigin, appState: AppState, settings: DeliveryOverrides = .init()) {
        self.payload = payload
        self.origin = origin
        self.appState = appState
        self.settings = settings
    }

    /// A payload's bytes from a file at `path`.
    public static func file(
        _ path: String, bytes: [UInt8], appState: AppState, settings: DeliveryOverrides = .init()
    ) -> DeliveryInput {
        DeliveryInput(payload: .bytes(bytes), origin: .file(path), appState: appState, settings: settings)
    }
}

/// Where a payload came from: what the result's `file`, `transport` and `apns` say.
public struct DeliveryOrigin: Sendable, Equatable {
    /// The payload file's path, or the request's path for a push (`/3/device/<token>`).
    public var name: String
    public var transport: DeliveryTransport
    /// A push request's attributes; nil for a file.
    public var apns: APNsAttributes?

    public init(name: String, transport: DeliveryTransport, apns: APNsAttributes? = nil) {
        self.name = name
        self.transport = transport
        self.apns = apns
    }

    public static func file(_ path: String) -> DeliveryOrigin { DeliveryOrigin(name: path, transport: .file) }
}
