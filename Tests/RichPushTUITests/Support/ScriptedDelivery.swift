import Foundation
import RichPushCore

@testable import RichPushTUI

/// A delivery double: answers by file name with canned results, reporting progress like the real pipeline
/// (the limits first, then the timeline).
struct ScriptedDelivery: NotificationDelivering {
    /// Where the attachment files "are": a fresh temporary folder per run, which snapshots mask.
    let attachmentFolder = FileManager.default.temporaryDirectory.appendingPathComponent(
        "richpush-\(UUID().uuidString)")

    func deliver(
        payload: [UInt8], file: String, appState: AppState, observer: @escaping @Sendable (DeliveryProgress) -> Void
    ) async -> DeliveryResult {
        var result: DeliveryResult
        if file.hasSuffix("http-url.json") {
            result = Fixtures.insecureResult()
        } else if file.hasSuffix("broken.json") {
            result = Fixtures.rejectedResult()
        } else if file.hasSuffix("extension-expired.json") {
            result = Fixtures.expiredResult()
        } else {
            result = Fixtures.richResult()
            result.attachment?.file = attachmentFolder.appendingPathComponent("cat.png").path
        }
        result.file = file
        result.appState = appState
        if appState == .foreground && result.delivered {
            result.style = .plain
            result.attachment = nil
            result.extensionInvoked = false
            result.fallback = Fallback(.foreground, "the app is in the foreground")
            result.timeline = Fixtures.foregroundResult().timeline
        }
        observer(.limits(result.limits ?? Fixtures.configuredLimits))
        for event in result.timeline {
            observer(.event(event))
            if event.kind == .downloadStarted { observer(.bytesReceived(20_000, expected: 48_213)) }
        }
        return result
    }
}
