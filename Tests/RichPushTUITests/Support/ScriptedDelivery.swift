import Foundation
import RichPushCore
import Synchronization

@testable import RichPushTUI

/// A delivery double: answers by file name with canned results, reporting progress like the real pipeline
/// (the limits first, then the timeline).
struct ScriptedDelivery: NotificationDelivering {
    /// Where the attachment files "are": a fresh temporary folder per run, which snapshots mask.
    let attachmentFolder = FileManager.default.temporaryDirectory.appendingPathComponent(
        "richpush-\(UUID().uuidString)")
    /// Payload files answered with an animated GIF (2 frames, 40x40) instead of the cat.
    var gifFiles: Set<String> = []

    /// The inputs asked for, in order.
    let inputs = Inputs()

    final class Inputs: Sendable {
        private let list = Mutex<[DeliveryInput]>([])
        func append(_ input: DeliveryInput) { list.withLock { $0.append(input) } }
        var all: [DeliveryInput] { list.withLock { $0 } }
    }

    func deliver(_ input: DeliveryInput, observer: @escaping @Sendable (DeliveryProgress) -> Void) async
        -> DeliveryResult
    {
        inputs.append(input)
        let file = input.origin.name
        let appState = input.appState
        var result: DeliveryResult
        if case .oversized(let size) = input.payload {
            result = DeliveryResult(
                file: file, appState: appState, delivered: false, rejection: .oversizedFile(bytes: size),
                style: .silent)
        } else if file.hasSuffix("http-url.json") {
            result = Fixtures.insecureResult()
        } else if file.hasSuffix("broken.json") {
            result = Fixtures.rejectedResult()
        } else if file.hasSuffix("extension-expired.json") {
            result = Fixtures.expiredResult()
        } else {
            result = Fixtures.richResult()
            result.attachment?.file = attachmentFolder.appendingPathComponent("cat.png").path
            if gifFiles.contains(where: { file.hasSuffix($0) }) {
                result.attachment = Attachment(
                    url: "https://fixtures.richpush.test/spinner.gif", format: .gif, width: 40, height: 40, frames: 2,
                    bytes: 1_234, sha256: "ab12", file: attachmentFolder.appendingPathComponent("spinner.gif").path)
            }
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
