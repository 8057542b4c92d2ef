import Foundation
import RichPushCore
import RichPushLibrary
import RichPushNetwork
import RichPushTUI

/// Sends payloads from the notification center under the same per-payload settings replay uses: the
/// `given` of the `NAME.expect.json` beside the payload, applied by the system. The app state stays the one
/// the person chose on screen.
struct PayloadSettingsDelivery: NotificationDelivering {
    var system: NotificationSystem
    var store: AttachmentStore

    func deliver(
        payload: [UInt8], file: String, appState: AppState, observer: @escaping @Sendable (DeliveryProgress) -> Void
    ) async -> DeliveryResult {
        let expectationPath = PayloadDiscovery.expectationPath(for: file)
        let settings =
            if FileManager.default.fileExists(atPath: expectationPath),
                case .success(let expectation) = LoadedPayload.loadExpectation(expectationPath)
            {
                expectation.given
            } else {
                PayloadSettings()
            }
        return await system.deliver(
            payload: payload, file: file, appState: appState, settings: settings, observer: observer)
    }

    func discardAttachments(_ files: [String]) async {
        for file in files { store.remove(URL(fileURLWithPath: file)) }
    }
}
