import RichPushCore

@testable import RichPushTUI

/// Results and states the screen tests draw. Times are fixed, so nothing in a frame is volatile.
enum Fixtures {
    static let startTimeOfDay = 14.0 * 3600 + 3 * 60  // 14:03:00
    static let size = TerminalSize(columns: 120, rows: 40)
    static let library = [
        "fcm/v1-image.json", "gif-closed.json", "http-url.json", "png-background.json", "simulator/cat.apns",
        "timeout.json",
    ]

    /// The command line's defaults: 5 s download, 30 s budget, 10 MB.
    static let configuredLimits = EffectiveLimits(DeliveryConfiguration())
    /// What payloads/fallback/extension-expired.expect.json gives: a 10 s download within a 1 s budget.
    static let oneSecondBudget = EffectiveLimits(
        downloadTimeout: .seconds(10), extensionBudget: .seconds(1), downloadMaxBytes: DownloadLimits.tenMegabytes,
        attachmentMaxBytes: DownloadLimits.tenMegabytes)

    static let catAttachment = Attachment(
        url: "https://fixtures.richpush.test/cat.png", format: .png, width: 640, height: 480, frames: 1,
        bytes: 48_213, sha256: "9f2c4b1e7d03a6f58e2b91c0d4a7f3e6b5c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2",
        file: "/tmp/richpush-TEMP/attachments/1/cat.png")

    static func richResult(file: String = "payloads/png-background.json") -> DeliveryResult {
        DeliveryResult(
            file: file, appState: .background, extensionInvoked: true, style: .rich,
            content: NotificationContent(
                title: "New arrivals", subtitle: "Spring collection", body: "Tap to see what's new"),
            imageURL: "https://fixtures.richpush.test/cat.png", attachment: catAttachment,
            timeline: [
                TimelineEvent(at: 0, .received, "312 bytes, app background"),
                TimelineEvent(at: 0.001, .extensionStarted),
                TimelineEvent(at: 0.002, .downloadStarted, "https://fixtures.richpush.test/cat.png"),
                TimelineEvent(at: 0.031, .downloadProgress, "HTTP 200, image/png, 48213 bytes"),
                TimelineEvent(at: 0.038, .downloadFinished, "48213 bytes, png 640x480"),
                TimelineEvent(at: 0.039, .attachmentCreated, "cat.png"),
                TimelineEvent(at: 0.039, .contentHandlerCalled, "with attachment"),
                TimelineEvent(at: 0.041, .presented, "rich, with image"),
            ],
            elapsed: 0.041, source: .apns, pushID: "demo-42")
    }

    static func insecureResult() -> DeliveryResult {
        DeliveryResult(
            file: "payloads/http-url.json", appState: .background, extensionInvoked: true, style: .plain,
            content: NotificationContent(title: "Flash sale", body: "50% off everything until midnight"),
            imageURL: "http://fixtures.richpush.test/cat.png",
            fallback: Fallback(
                .insecureURL, "http:// image URLs are refused; only https is downloaded (App Transport Security)"),
            timeline: [
                TimelineEvent(at: 0, .received, "298 bytes, app background"),
                TimelineEvent(at: 0.001, .extensionStarted),
                TimelineEvent(at: 0.001, .contentHandlerCalled, "without attachment"),
                TimelineEvent(at: 0.002, .presented, "plain"),
            ],
            elapsed: 0.002, source: .apns)
    }

    static func timeoutResult() -> DeliveryResult {
        DeliveryResult(
            file: "payloads/timeout.json", appState: .closed, extensionInvoked: true, style: .plain,
            content: NotificationContent(title: "Your order shipped", body: "Track it in the app"),
            imageURL: "https://fixtures.richpush.test/cat.png?delay=6s",
            fallback: Fallback(.timeout, "no complete image within 5 s"),
            hint: "The image server is slow: the download timeout is 5 s.",
            timeline: [
                TimelineEvent(at: 0, .received, "301 bytes, app closed"),
                TimelineEvent(at: 0.001, .extensionStarted),
                TimelineEvent(at: 0.002, .downloadStarted, "https://fixtures.richpush.test/cat.png?delay=6s"),
                TimelineEvent(at: 5.002, .downloadFailed, "timeout: no complete image within 5 s"),
                TimelineEvent(at: 5.003, .contentHandlerCalled, "without attachment"),
                TimelineEvent(at: 5.004, .presented, "plain"),
            ],
            elapsed: 5.004, source: .apns)
    }

    /// The extension ran out of its (per-payload) 1 s budget while the image was still coming.
    static func expiredResult() -> DeliveryResult {
        var result = DeliveryResult(
            file: "payloads/fallback/extension-expired.json", appState: .background, extensionInvoked: true,
            style: .plain, content: NotificationContent(title: "Budget", body: "The extension runs out of time"),
            imageURL: "https://fixtures.richpush.test/cat.png?delay=3s",
            fallback: Fallback(.extensionExpired, "serviceExtensionTimeWillExpire after 1 s"),
            timeline: [
                TimelineEvent(at: 0, .received, "260 bytes, app background"),
                TimelineEvent(at: 0.001, .extensionStarted),
                TimelineEvent(at: 0.002, .downloadStarted, "https://fixtures.richpush.test/cat.png?delay=3s"),
                TimelineEvent(at: 1.001, .timeWillExpire, "budget of 1 s used up"),
                TimelineEvent(at: 1.002, .contentHandlerCalled, "without attachment"),
                TimelineEvent(at: 1.002, .presented, "plain"),
            ],
            elapsed: 1.002, source: .apns)
        result.limits = oneSecondBudget
        result.sound = "default"
        return result
    }

    /// A sale notification of thread `thread`, numbered so each one reads differently.
    static func threadResult(_ number: Int, thread: String?, collapseID: String? = nil) -> DeliveryResult {
        var result = richResult(file: "payloads/sale-\(number).json")
        result.content = NotificationContent(title: "Sale update \(number)", body: "Prices drop again (\(number))")
        result.threadID = thread
        result.collapseID = collapseID
        result.attachment?.file = "/tmp/richpush-TEMP/attachments/\(number)/cat.png"
        return result
    }

    static func rejectedResult() -> DeliveryResult {
        DeliveryResult(
            file: "payloads/broken.json", appState: .background, delivered: false,
            rejection: PayloadRejection(.malformedJSON, "not valid JSON at line 3, column 7"), style: .silent,
            timeline: [
                TimelineEvent(at: 0, .received, "41 bytes, app background"),
                TimelineEvent(at: 0, .rejected, "malformedJSON: not valid JSON at line 3, column 7"),
            ])
    }

    static func foregroundResult() -> DeliveryResult {
        DeliveryResult(
            file: "payloads/png-background.json", appState: .foreground, style: .plain,
            content: NotificationContent(
                title: "New arrivals", subtitle: "Spring collection", body: "Tap to see what's new"),
            imageURL: "https://fixtures.richpush.test/cat.png",
            fallback: Fallback(
                .foreground,
                "the app is in the foreground: the extension does not run, and the text shows as its willPresent asks"),
            timeline: [
                TimelineEvent(at: 0, .received, "312 bytes, app foreground"),
                TimelineEvent(at: 0, .presented, "plain (app in foreground: as its willPresent asks)"),
            ], source: .apns)
    }

    /// A state as after sending payloads: `entries` are given oldest first and end up newest first.
    static func state(
        _ entries: [NotificationEntry] = [], appState: AppState = .background, size: TerminalSize = size
    ) -> TUIState {
        var state = TUIState(
            appState: appState, libraryRoot: "payloads", library: library, size: size, startTimeOfDay: startTimeOfDay)
        state.notifications = entries.reversed()
        state.nextID = (entries.map(\.id).max() ?? 0) + 1
        state.now = (entries.map(\.sentAt).max() ?? 0) + 1.5
        return state
    }

    static func entry(_ id: Int, _ result: DeliveryResult, sentAt: Double) -> NotificationEntry {
        var entry = NotificationEntry(
            id: id, file: String(result.file.dropFirst("payloads/".count)), appState: result.appState, sentAt: sentAt,
            preview: result.content)
        entry.result = result
        entry.events = result.timeline
        return entry
    }

    /// A notification whose image is still downloading: 12.3 KB after 1.8 s of the 5 s.
    static func downloadingEntry(_ id: Int, sentAt: Double) -> NotificationEntry {
        var entry = NotificationEntry(
            id: id, file: "slow-drip.json", appState: .background, sentAt: sentAt,
            preview: NotificationContent(title: "Weekend deals", subtitle: "", body: "Slow image on purpose"))
        entry.events = [
            TimelineEvent(at: 0, .received, "320 bytes, app background"),
            TimelineEvent(at: 0.001, .extensionStarted),
            TimelineEvent(at: 0.002, .downloadStarted, "https://fixtures.richpush.test/cat.png?drip=2KB"),
        ]
        entry.bytesReceived = 12_595
        entry.bytesExpected = 48_213
        return entry
    }
}
