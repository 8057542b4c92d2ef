public import RichPushCore

/// What the notification center needs to send a payload: the same pipeline as replay, with live progress.
///
/// The executable passes an adapter around a real `NotificationSystem`; tests pass a double.
public protocol NotificationDelivering: Sendable {
    func deliver(_ input: DeliveryInput, observer: @escaping @Sendable (DeliveryProgress) -> Void) async
        -> DeliveryResult

    /// The notifications that attached these files were deleted: their temporary files can go.
    func discardAttachments(_ files: [String]) async

    /// The person picked another SDK (`p`): payloads sent from now on go through its service extension.
    func sdkChanged(_ sdk: SDKProfile)

    /// Writes these notifications, in this order, to a new HTML report and returns its path.
    func exportReport(_ results: [DeliveryResult]) async -> Result<String, ExportError>

    /// Writes a notification as a payload file with its expectation, as `--record` does, and returns its path.
    func record(_ result: DeliveryResult) async -> Result<String, ExportError>
}

extension NotificationDelivering {
    /// Deliverers that keep no files have nothing to discard.
    public func discardAttachments(_ files: [String]) async {}

    /// Deliverers with a fixed configuration ignore the choice.
    public func sdkChanged(_ sdk: SDKProfile) {}

    /// Deliverers without a report writer say so.
    public func exportReport(_ results: [DeliveryResult]) async -> Result<String, ExportError> {
        .failure(ExportError("this notification center cannot write reports"))
    }

    /// Deliverers without a recorder say so.
    public func record(_ result: DeliveryResult) async -> Result<String, ExportError> {
        .failure(ExportError("this notification center cannot record"))
    }
}
