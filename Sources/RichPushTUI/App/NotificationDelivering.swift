public import RichPushCore

/// What the notification center needs to send a payload: the same pipeline as replay, with live progress.
///
/// The executable passes an adapter around a real `NotificationSystem`; tests pass a double.
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
