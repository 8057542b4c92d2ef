/// A request the endpoint refused, as the sender was told: status, reason and a sentence.
public struct EndpointRejection: Sendable, Equatable {
    public var status: Int
    /// Apple's reason (`BadTopic`) or Google's error code (`UNREGISTERED`, `INVALID_ARGUMENT`).
    public var reason: String
    public var detail: String

    public init(status: Int, reason: String, detail: String) {
        self.status = status
        self.reason = reason
        self.detail = detail
    }
}

extension DeliveryResult {
    /// The result of a request a push endpoint refused: nothing reached the device, nothing is shown.
    public static func refused(
        _ rejection: EndpointRejection, origin: DeliveryOrigin, appState: AppState, bytes: Int
    ) -> DeliveryResult {
        var result = DeliveryResult(
            file: origin.name, appState: appState, delivered: false, style: .silent,
            timeline: [
                TimelineEvent(at: 0, .received, "\(bytes) bytes, app \(appState.rawValue)"),
                TimelineEvent(at: 0, .rejected, "\(rejection.status) \(rejection.reason): \(rejection.detail)"),
            ])
        result.transport = origin.transport
        result.apns = origin.apns
        result.endpointRejection = rejection
        return result
    }
}
