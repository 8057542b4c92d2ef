import Foundation

/// What the extension handed to the content handler.
public struct ExtensionOutcome: Sendable, Equatable {
    public var content: NotificationContent
    public var attachment: Attachment?
    /// Why the image is missing, when it is.
    public var fallback: Fallback?
}

/// One Notification Service Extension instance, as iOS creates one per notification.
///
/// `didReceive` resolves the image URL, downloads it under the download timeout and attaches it;
/// a budget timer calls `serviceExtensionTimeWillExpire`, which delivers the best attempt at once and
/// cancels the download. Whichever finishes first calls the content handler; the other call is ignored.
actor ServiceExtensionSession {
    private let request: NotificationRequest
    private let imageURL: String?
    private let downloader: any ImageDownloading
    private let clock: any Clock<Duration>
    private let configuration: DeliveryConfiguration
    private let timeline: Timeline

    private let gate = ContentHandlerGate()
    private var bestAttempt: NotificationContent
    private var outcome: ExtensionOutcome?
    private var waiter: CheckedContinuation<Void, Never>?

    init(
        request: NotificationRequest, imageURL: String?, downloader: any ImageDownloading,
        clock: any Clock<Duration>, configuration: DeliveryConfiguration, timeline: Timeline
    ) {
        self.request = request
        self.imageURL = imageURL
        self.downloader = downloader
        self.clock = clock
        self.configuration = configuration
        self.timeline = timeline
        self.bestAttempt = request.content
    }

    /// Runs the extension until the content handler has been called, and returns what it was given.
    func run() async -> ExtensionOutcome {
        timeline.record(.extensionStarted)
        let work = Task { await self.didReceive() }
        let budget = Task { [clock, configuration] in
            do {
                try await clock.sleep(for: configuration.extensionBudget)
            } catch {
                return
            }
            self.serviceExtensionTimeWillExpire()
        }
        if outcome == nil {
            await withCheckedContinuation { waiter = $0 }
        }
        budget.cancel()
        // After an expiry the download is cancelled; waiting for it lets its late completion show in
        // the timeline (ignored by the gate) and its temporary file be discarded.
        work.cancel()
        await work.value
        return outcome!
    }

    private func didReceive() async {
        guard let imageURL else {
            complete(attachment: nil, fallback: nil)
            return
        }
        guard let url = URL(string: imageURL), let scheme = url.scheme?.lowercased(),
            url.host?.isEmpty == false
        else {
            complete(
                attachment: nil, fallback: Fallback(.invalidURL, "\"\(imageURL)\" is not an absolute URL"))
            return
        }
        guard scheme == "https" else {
            complete(
                attachment: nil,
                fallback: Fallback(
                    .insecureURL,
                    "\(scheme):// image URLs are refused; only https is downloaded (App Transport Security)"))
            return
        }

        timeline.record(.downloadStarted, imageURL)
        do {
            let image = try await download(url)
            timeline.record(
                .downloadFinished,
                "\(image.bytes) bytes, \(image.format.rawValue) \(image.width)x\(image.height)")
            let attachment = Attachment(url: imageURL, image: image)
            timeline.record(.attachmentCreated, image.file.lastPathComponent)
            if !complete(attachment: attachment, fallback: nil) {
                await downloader.discard(image)
            }
        } catch let failure as DownloadFailure {
            timeline.record(.downloadFailed, failure.description)
            complete(attachment: nil, fallback: Fallback(failure.reason, failure.detail))
        } catch is CancellationError {
            timeline.record(.downloadFailed, "cancelled")
            complete(attachment: nil, fallback: Fallback(.extensionExpired, "the download was cancelled"))
        } catch {
            timeline.record(.downloadFailed, "\(error)")
            complete(attachment: nil, fallback: Fallback(.networkError, "\(error)"))
        }
    }

    /// The download raced against the download timeout on the injected clock.
    private func download(_ url: URL) async throws -> DownloadedImage {
        let limits = DownloadLimits(
            timeout: configuration.downloadTimeout, maxBytes: configuration.extensionMaxImageBytes)
        let timeline = self.timeline
        let events: @Sendable (DownloadEvent) -> Void = { event in
            switch event {
            case .requestSent: break
            case .redirect(let target): timeline.record(.redirect, target.absoluteString)
            case .responseReceived(let status, let type, let expected):
                timeline.record(
                    .downloadProgress,
                    "HTTP \(status), \(type ?? "no Content-Type")\(expected.map { ", \($0) bytes" } ?? "")")
                timeline.notify(.bytesReceived(0, expected: expected))
            case .bytesReceived(let count): timeline.notify(.bytesReceived(count, expected: nil))
            }
        }
        let timeout = configuration.downloadTimeout
        return try await withThrowingTaskGroup(of: DownloadedImage?.self) { [downloader, clock] group in
            group.addTask { try await downloader.download(url, limits: limits, events: events) }
            group.addTask {
                try await clock.sleep(for: timeout)
                return nil
            }
            do {
                if let first = try await group.next(), let image = first {
                    group.cancelAll()
                    return image
                }
                throw DownloadFailure.timeout(after: timeout)
            } catch {
                // The losing download may still hand over a file; it will never be shown.
                group.cancelAll()
                while let late = try? await group.next() {
                    if let image = late { await downloader.discard(image) }
                }
                throw error
            }
        }
    }

    /// iOS calls this when the budget is about to run out: deliver the best attempt (the original text) now.
    /// An attachment is only ever made and handed over in one step, so there is none to add here.
    func serviceExtensionTimeWillExpire() {
        let budget = configuration.extensionBudget.shortDescription
        timeline.record(.timeWillExpire, "budget of \(budget) used up")
        complete(
            attachment: nil,
            fallback: Fallback(
                .extensionExpired, "the extension did not finish within \(budget); the best attempt was delivered"))
    }

    /// The content handler: the first call wins, later calls are recorded and ignored.
    @discardableResult
    private func complete(attachment: Attachment?, fallback: Fallback?) -> Bool {
        guard gate.claim() else {
            timeline.record(.duplicateCompletionIgnored, fallback.map { $0.reason.rawValue } ?? "")
            return false
        }
        timeline.record(
            .contentHandlerCalled, attachment == nil ? "without attachment" : "with attachment")
        outcome = ExtensionOutcome(
            content: bestAttempt, attachment: attachment, fallback: fallback)
        waiter?.resume()
        waiter = nil
        return true
    }

}
