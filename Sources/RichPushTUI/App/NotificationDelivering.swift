public import RichPushCore

/// What the notification center needs to send a payload: the same pipeline as replay, with live progress.
///
/// The executable passes ``NotificationSystemDelivery`` around a real ``NotificationSystem``; tests pass a double.
public protocol NotificationDelivering: Sendable {
    func deliver(
        payload: [UInt8], file: String, appState: AppState,
        observer: @escaping @Sendable (DeliveryProgress) -> Void
    ) async -> DeliveryResult

    /// The notifications that attached these files were deleted: their temporary files can go.
    func discardAttachments(_ files: [String]) async
}

extension NotificationDelivering {
    /// Deliverers that keep no files have nothing to discard.
    public func discardAttachments(_ files: [String]) async {}
}

/// Delivers through a ``NotificationSystem`` (its downloader decides where images come from).
public struct NotificationSystemDelivery: NotificationDelivering {
    public var system: NotificationSystem

    public init(system: NotificationSystem) {
        self.system = system
    }

    public func deliver(
        payload: [UInt8], file: String, appState: AppState,
        observer: @escaping @Sendable (DeliveryProgress) -> Void
    ) async -> DeliveryResult {
        await system.deliver(payload: payload, file: file, appState: appState, observer: observer)
    }
}
