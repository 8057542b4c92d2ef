import Foundation
import RichPushCore
import RichPushNetwork
import RichPushReplay
import RichPushTUI

/// Sends payloads from the notification center under the same per-payload settings replay uses: the
/// image key paths and durations in `given` of the `NAME.expect.json` beside the payload. The app state
/// stays the one the person chose on screen.
struct PayloadSettingsDelivery: NotificationDelivering {
    var system: NotificationSystem
    var store: AttachmentStore

    func deliver(
        payload: [UInt8], file: String, appState: AppState, observer: @escaping @Sendable (DeliveryProgress) -> Void
    ) async -> DeliveryResult {
        var system = self.system
        let expectationPath = PayloadDiscovery.expectationPath(for: file)
        if let bytes = FileManager.default.contents(atPath: expectationPath),
            let expectation = try? Expectation.parse(Array(bytes))
        {
            system.configuration = expectation.configuration(from: system.configuration)
        }
        return await system.deliver(payload: payload, file: file, appState: appState, observer: observer)
    }

    func discardAttachments(_ files: [String]) async {
        for file in files { store.remove(URL(fileURLWithPath: file)) }
    }
}
