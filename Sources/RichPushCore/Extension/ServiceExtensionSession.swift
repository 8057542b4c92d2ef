import Foundation

/// What the extension handed to the content handler.
public struct ExtensionOutcome: Sendable, Equatable {
    public var content: NotificationContent
    public var attachment: Attachment?
    /// Why the image is missing, when it is.
    public var fallback: Fallback?
    /// The downloaded file behind `attachment`, so the system can discard it if it refuses the attachment.
    var image: DownloadedImage?
}

/// What the session reports when it has ended: what the content handler was given, and the display receipt.
struct ExtensionReport: Sendable, Equatable {
    var outcome: ExtensionOutcome
    var receipt: ReceiptReport?
}

/// One Notification Service Extension instance, as iOS creates one per notification.
///
/// ``run(onContentHandler:)`` is a task group of up to three children: the work (`didReceive`: resolve the URL,
/// download under the download deadline, attach), the budget timer (`serviceExtensionTimeWillExpire`, which
/// delivers the best attempt) and, when a receipt URL and a push id are given, the display receipt, POSTed as
/// the extension starts and never awaited by the work (as extensions that count displays do). The first of the
/// work and the timer to finish calls the content handler. The work is then over; the timer keeps running only
/// while the receipt is in flight, since the budget is what bounds the receipt: when it runs out the receipt is
/// cancelled (on a device the process is ended). Once the handler was called and the receipt has ended, the
/// rest is cancelled and awaited, so a late completion is recorded as ignored and a late file is discarded.
/// Cancelling the task that runs the session (a quit, an interrupted replay) cancels everything with it.
struct ServiceExtensionSession: Sendable {
    let request: NotificationRequest
    let imageURL: String?
    let downloader: any ImageDownloading
    let clock: any Clock<Duration>
    let configuration: DeliveryConfiguration
    let timeline: Timeline
    /// The display receipt to send, with what sends it; nil sends none.
    var receipt: (receipt: DisplayReceipt, sender: any ReceiptSending)? = nil

    private enum Finish: Sendable {
        /// `didReceive` called the content handler with this outcome.
        case work(ExtensionOutcome)
        /// The budget ran out: iOS called `serviceExtensionTimeWillExpire`.
        case expired
        /// The budget timer was cancelled before it ran out.
        case timerCancelled
        /// The receipt ended: an HTTP status, a failure, or a cancellation.
        case receipt(ReceiptEnd)
    }

    private enum ReceiptEnd: Sendable {
        case answered(Int)
        case failed(String)
        case cancelled
    }

    /// Runs the extension until the content handler has been called and every child has ended, and returns
    /// what the handler was given and what became of the receipt. `onContentHandler` runs as soon as the handler
    /// is called (the system presents the notification then), while a receipt may still be in flight.
    func run(onContentHandler: (ExtensionOutcome) async -> Void = { _ in }) async -> ExtensionReport {
        timeline.record(.extensionStarted)
        return await withTaskGroup(of: Finish.self) { group in
            var report = receipt.map { ReceiptReport(url: $0.receipt.url.absoluteString, pushID: $0.receipt.pushID) }
            var receiptInFlight = false
            if let pending = self.receipt {
                let receipt = pending.receipt
                let sender = pending.sender
                if receipt.url.scheme?.lowercased() == "https" {
                    timeline.record(.receiptSent, "\(receipt.formBody) to \(receipt.url.absoluteString)")
                    receiptInFlight = true
                    group.addTask { await Self.send(receipt, with: sender) }
                } else {
                    let detail = "not sent: only https URLs are allowed (App Transport Security)"
                    timeline.record(.receiptFailed, detail)
                    report?.error = detail
                }
            }
            group.addTask { .work(await didReceive()) }
            group.addTask { [clock, configuration] in
                do {
                    try await clock.sleep(for: configuration.extensionBudget)
                    return .expired
                } catch {
                    return .timerCancelled
                }
            }
            var delivered: ExtensionOutcome?
            var budgetExpired = false
            for await finish in group {
                switch finish {
                case .work(let outcome):
                    if delivered == nil {
                        delivered = contentHandler(outcome)
                        await onContentHandler(outcome)
                        // While the receipt is in flight the budget timer keeps running: it bounds the receipt.
                        if !receiptInFlight { group.cancelAll() }
                    } else {
                        // The expired extension's work ended late: iOS ignores a second content handler call.
                        timeline.record(
                            .duplicateCompletionIgnored, outcome.fallback.map { $0.reason.rawValue } ?? "")
                        if let image = outcome.image { await downloader.discard(image) }
                    }
                case .expired:
                    budgetExpired = true
                    if delivered == nil {
                        let best = serviceExtensionTimeWillExpire()
                        delivered = best
                        await onContentHandler(best)
                    }
                    group.cancelAll()
                case .timerCancelled:
                    break
                case .receipt(let end):
                    receiptInFlight = false
                    let afterHandler = delivered != nil
                    report?.completedAfterContentHandler = afterHandler
                    let when = afterHandler ? ", after the content handler" : ", before the content handler"
                    switch end {
                    case .answered(let status) where (200...299).contains(status):
                        report?.status = status
                        timeline.record(.receiptFinished, "HTTP \(status)\(when)")
                    case .answered(let status):
                        report?.status = status
                        report?.error = "HTTP \(status)"
                        timeline.record(.receiptFailed, "HTTP \(status)\(when)")
                    case .failed(let detail):
                        report?.error = detail
                        timeline.record(.receiptFailed, "\(detail)\(when)")
                    case .cancelled:
                        let detail =
                            budgetExpired
                            ? "cancelled when the extension's budget of \(configuration.extensionBudget.shortDescription) ran out (on a device the process is ended then)"
                            : "cancelled"
                        report?.error = detail
                        timeline.record(.receiptFailed, detail)
                    }
                    if afterHandler { group.cancelAll() }
                }
            }
            // The work child always ends with an outcome, so `delivered` is set; the fallback only guards the type.
            let outcome = delivered ?? ExtensionOutcome(content: request.content, attachment: nil, fallback: nil)
            return ExtensionReport(outcome: outcome, receipt: report)
        }
    }

    /// Sends the receipt; a receipt never throws into the extension, whatever happens to it.
    private static func send(_ receipt: DisplayReceipt, with sender: any ReceiptSending) async -> Finish {
        do {
            let status = try await sender.send(receipt)
            return .receipt(.answered(status))
        } catch is CancellationError {
            return .receipt(.cancelled)
        } catch {
            if Task.isCancelled { return .receipt(.cancelled) }
            return .receipt(.failed((error as? ReceiptFailure)?.detail ?? "\(error)"))
        }
    }

    /// The content handler: records the call and passes the outcome on.
    private func contentHandler(_ outcome: ExtensionOutcome) -> ExtensionOutcome {
        timeline.record(
            .contentHandlerCalled, outcome.attachment == nil ? "without attachment" : "with attachment")
        return outcome
    }

    /// iOS calls this when the budget is about to run out: the best attempt (the original text) is delivered.
    private func serviceExtensionTimeWillExpire() -> ExtensionOutcome {
        let budget = configuration.extensionBudget.shortDescription
        timeline.record(.timeWillExpire, "budget of \(budget) used up")
        return contentHandler(
            outcome(
                fallback: Fallback(
                    .extensionExpired, "the extension did not finish within \(budget); the best attempt was delivered")
            ))
    }

    private func outcome(fallback: Fallback?, image: DownloadedImage? = nil) -> ExtensionOutcome {
        ExtensionOutcome(
            content: request.content, attachment: image.map { Attachment(url: imageURL ?? "", image: $0) },
            fallback: fallback, image: image)
    }

    /// `didReceive(_:withContentHandler:)`: what the emulated extension does with the push.
    private func didReceive() async -> ExtensionOutcome {
        guard let imageURL else { return outcome(fallback: nil) }
        let url: URL
        switch ImageURLCheck.check(imageURL) {
        case .failure(let fallback): return outcome(fallback: fallback)
        case .success(let checked): url = checked
        }
        timeline.record(.downloadStarted, imageURL)
        do {
            let image = try await download(url)
            timeline.record(
                .downloadFinished, "\(image.bytes) bytes, \(image.format.rawValue) \(image.width)x\(image.height)")
            timeline.record(.attachmentCreated, image.file.lastPathComponent)
            return outcome(fallback: nil, image: image)
        } catch let failure as DownloadFailure {
            timeline.record(.downloadFailed, failure.description)
            return outcome(fallback: Fallback(failure.reason, failure.detail))
        } catch is CancellationError {
            timeline.record(.downloadFailed, "cancelled")
            return outcome(fallback: Fallback(.extensionExpired, "the download was cancelled"))
        } catch {
            timeline.record(.downloadFailed, "\(error)")
            return outcome(fallback: Fallback(.networkError, "\(error)"))
        }
    }

    /// The one place the download deadline is enforced: the download races a timer on the injected clock. A
    /// file that arrives after it lost (the deadline, a cancellation) is discarded.
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
            var winner: Result<DownloadedImage, any Error>?
            while let next = await group.nextResult() {
                switch (winner, next) {
                case (nil, .success(let image?)):
                    winner = .success(image)
                    group.cancelAll()
                case (nil, .success(nil)):
                    winner = .failure(DownloadFailure.timeout(after: timeout))
                    group.cancelAll()
                case (nil, .failure(let error)):
                    winner = .failure(error)
                    group.cancelAll()
                case (_?, .success(let late?)):
                    await downloader.discard(late)
                case (_?, _):
                    break
                }
            }
            // A download that won while the extension was being cancelled is returned all the same: the session
            // then ignores the late completion and discards its file.
            guard let winner else { throw CancellationError() }
            return try winner.get()
        }
    }
}

/// The checks the extension makes on an image URL before downloading it.
enum ImageURLCheck {
    enum Outcome {
        case success(URL)
        case failure(Fallback)
    }

    static func check(_ text: String) -> Outcome {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), !scheme.isEmpty else {
            return .failure(Fallback(.invalidURL, "\"\(text)\" is not an absolute URL"))
        }
        guard scheme == "https" else {
            let written = text.lowercased().hasPrefix("\(scheme)://") ? "\(scheme)://" : "\(scheme):"
            return .failure(
                Fallback(
                    .insecureURL,
                    "\(written) image URLs are refused; only https is downloaded (App Transport Security)"))
        }
        guard let host = url.host, !host.isEmpty else {
            return .failure(Fallback(.invalidURL, "\"\(text)\" has no host"))
        }
        if let port = url.port, !(1...65535).contains(port) {
            return .failure(Fallback(.invalidURL, "port \(port) is out of range (1-65535)"))
        }
        return .success(url)
    }
}
