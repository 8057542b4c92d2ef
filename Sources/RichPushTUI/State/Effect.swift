import RichPushCore

/// Work `reduce` asks the run loop to do; its results come back as actions.
enum Effect: Equatable, Sendable {
    /// Read the payload file and deliver it on the phone `device` (a payload's own `given.device` patches over it);
    /// report progress and the result for notification `id`.
    case deliver(id: Int, file: String, appState: AppState, device: DeviceState = .newPhone)
    /// List the payload folder again.
    case loadLibrary
    /// Remove the attachment files of notifications that were deleted or cleared.
    case discardAttachments([String])
    /// Write these finished notifications, oldest first, to an HTML report.
    case exportReport([DeliveryResult])
    /// Write this notification as a payload file with its expectation, as `--record` does.
    case recordNotification(DeliveryResult)
    /// Leave the UI and restore the terminal.
    case quit
}
