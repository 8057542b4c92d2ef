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
    /// The image URL the system resolved with the configured key paths (the requirement's extension's).
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
        // What the vendor's SDK would send besides the image: recorded, never sent.
        for request in configuration.sdk.rules.wouldSend(for: JSONValue.object(request.payload)) {
            timeline.record(.sdkWouldSend, "\(configuration.sdk.name): \(request.summary) (not sent)")
        }
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
            // An SDK that does not handle this payload never calls the content handler: only the budget ends it.
            let withheld = configuration.sdk.rules.withheldContentHandler(for: JSONValue.object(request.payload))
            if withheld == nil { group.addTask { .work(await didReceive()) } }
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
                        let best = serviceExtensionTimeWillExpire(withheld: withheld)
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
    private func serviceExtensionTimeWillExpire(withheld: String? = nil) -> ExtensionOutcome {
        let budget = configuration.extensionBudget.shortDescription
        timeline.record(.timeWillExpire, "budget of \(budget) used up")
        let detail =
            withheld.map { "\($0) The best attempt was delivered when the budget of \(budget) ran out." }
            ?? "the extension did not finish within \(budget); the best attempt was delivered"
        return contentHandler(outcome(fallback: Fallback(.extensionExpired, detail)))
    }

    private func outcome(fallback: Fallback?, attached: Attached? = nil) -> ExtensionOutcome {
        guard let attached, let image = attached.image else {
            return ExtensionOutcome(
                content: request.content, attachment: nil, fallback: fallback ?? attached?.unshown, image: nil)
        }
        return ExtensionOutcome(
            content: request.content, attachment: Attachment(url: attached.url, image: image), fallback: fallback,
            image: image)
    }

    /// A download the extension made an attachment of, under the name it gave the file: an image, or a body that is
    /// none (an extension that checks neither status nor type attaches an error page), which iOS shows no image for.
    private struct Attached: Sendable {
        var url: String
        var image: DownloadedImage?
        /// Why iOS shows no image for it, when it is no image.
        var unshown: Fallback?
    }

    /// The image URLs the extension fetches: the resolved one for the requirement's extension, the profile's own
    /// keys for a vendor's.
    private var images: [ImageRequest] {
        if configuration.sdk.rules.usesConfiguredImageKeys {
            return imageURL.map { [ImageRequest(keyPath: "", url: $0)] } ?? []
        }
        return configuration.sdk.imageRequests(in: request.payload, policy: configuration.imagePolicy)
    }

    /// `didReceive(_:withContentHandler:)`: what the emulated extension does with the push.
    private func didReceive() async -> ExtensionOutcome {
        let images = self.images
        guard !images.isEmpty else { return outcome(fallback: nil) }
        switch configuration.sdk.rules.plurality {
        case .first:
            switch await attach(images[0]) {
            case .success(let attached): return outcome(fallback: nil, attached: attached)
            case .failure(let fallback): return outcome(fallback: fallback)
            }
        case .eachInTurn:
            var attached: [Attached] = []
            var firstFailure: Fallback?
            for request in images {
                if Task.isCancelled { break }
                switch await attach(request) {
                case .success(let one): attached.append(one)
                case .failure(let fallback): firstFailure = firstFailure ?? fallback
                }
            }
            return await keepFirst(of: attached, failure: firstFailure)
        case .allOrNothing:
            let results = await withTaskGroup(of: (Int, Attempt<Attached>).self) { group in
                for (index, request) in images.enumerated() {
                    group.addTask { (index, await attach(request)) }
                }
                var results: [(Int, Attempt<Attached>)] = []
                for await result in group { results.append(result) }
                return results.sorted { $0.0 < $1.0 }.map(\.1)
            }
            let attached = results.compactMap(\.value)
            let failure = results.lazy.compactMap(\.fallback).first
            if let failure, images.count > 1 {
                for one in attached { if let image = one.image { await downloader.discard(image) } }
                let detail =
                    "\(configuration.sdk.title) drops every attachment when one of its \(images.count) fails: \(failure.detail)"
                timeline.record(.attachmentRejected, detail)
                return outcome(fallback: Fallback(failure.reason, detail))
            }
            return await keepFirst(of: attached, failure: failure)
        }
    }

    /// Several attachments: iOS shows the first one's image, so the first is the result's and the others' files
    /// go (each was recorded as created).
    private func keepFirst(of attached: [Attached], failure: Fallback?) async -> ExtensionOutcome {
        guard let first = attached.first else { return outcome(fallback: failure) }
        for other in attached.dropFirst() { if let image = other.image { await downloader.discard(image) } }
        if attached.count > 1 {
            timeline.record(
                .attachmentCreated, "\(attached.count) attachments; the notification shows the first one's image")
        }
        return outcome(fallback: nil, attached: first)
    }

    /// Checks, downloads and names one image as the profile's extension does.
    private func attach(_ request: ImageRequest) async -> Attempt<Attached> {
        let profile = configuration.sdk
        let rules = profile.rules
        let url: URL
        switch rules.check(imageURL: request.url) {
        case .failure(let refusal): return .failure(Fallback(refusal))
        case .success(let checked): url = checked
        }
        timeline.record(.downloadStarted, request.url)
        var image: DownloadedImage
        do {
            image = try await download(url)
            timeline.record(
                .downloadFinished, "\(image.bytes) bytes, \(image.format.rawValue) \(image.width)x\(image.height)")
        } catch var failure as DownloadFailure {
            if failure.reason == .tooLarge, rules.size == .unchecked {
                failure.detail +=
                    " (richpush's own cap: \(profile.title) does not check the size, and iOS refuses images over 10 MB)"
            }
            timeline.record(.downloadFailed, failure.description)
            if let body = failure.body, rules.contentType == .ignored {
                return attachedAnyway(body, failure: failure, url: url, request: request)
            }
            return .failure(Fallback(failure.reason, failure.detail))
        } catch is CancellationError {
            timeline.record(.downloadFailed, "cancelled")
            return .failure(Fallback(.extensionExpired, "the download was cancelled"))
        } catch {
            timeline.record(.downloadFailed, "\(error)")
            return .failure(Fallback(.networkError, "\(error)"))
        }
        let downloaded = image.file
        let file = DownloadedFile(
            url: url, payloadType: request.type, name: downloaded.lastPathComponent,
            mediaType: image.servedContentType.map(MediaType.of), contentDisposition: image.servedContentDisposition,
            head: { DownloadedFile.head(of: downloaded) })
        switch rules.attachmentName(for: file) {
        case .failure(let refusal):
            timeline.record(.attachmentRejected, refusal.detail)
            await downloader.discard(image)
            return .failure(Fallback(refusal))
        case .success(let name):
            var detail = name.fileName
            // iOS types the file by the hint instead of its extension: the file richpush keeps carries the type
            // the hint names, so the attachment validation sees what iOS would.
            var stored = name.fileName
            if let hint = name.typeHint {
                let typed = FileNaming.imageExtension(forTypeHint: hint)
                detail += ", type hint \"\(FileNaming.sanitized(hint))\""
                detail += typed.map { " (iOS types it as .\($0))" } ?? " (names no image type iOS shows)"
                if let typed { stored += ".\(typed)" }
            }
            if stored != image.file.lastPathComponent {
                let target = image.file.deletingLastPathComponent().appendingPathComponent(stored, isDirectory: false)
                do {
                    try FileManager.default.moveItem(at: image.file, to: target)
                    image.file = target
                } catch {
                    timeline.record(.downloadFailed, "could not name the attachment \(stored): \(error)")
                    await downloader.discard(image)
                    return .failure(Fallback(.networkError, "could not name the attachment file: \(error)"))
                }
            }
            timeline.record(.attachmentCreated, detail)
            return .success(Attached(url: request.url, image: image))
        }
    }

    /// A body that is no image a notification shows, as an extension that checks neither the status nor the type
    /// goes on with it: it names the file by its rule (which may refuse it) and attaches it, and iOS refuses it.
    private func attachedAnyway(_ body: ServedBody, failure: DownloadFailure, url: URL, request: ImageRequest)
        -> Attempt<Attached>
    {
        let rules = configuration.sdk.rules
        let head = body.head
        let file = DownloadedFile(
            url: url, payloadType: request.type, name: "download", mediaType: body.contentType.map(MediaType.of),
            contentDisposition: body.contentDisposition, head: { head })
        switch rules.attachmentName(for: file) {
        case .failure(let refusal):
            timeline.record(.attachmentRejected, refusal.detail)
            return .failure(Fallback(refusal))
        case .success(let name):
            let status = (200...299).contains(body.status) ? "" : "the HTTP \(body.status) answer's body as "
            let detail =
                "\(configuration.sdk.title) attaches \(status)\(FileNaming.sanitized(name.fileName)), and iOS shows no image for it: \(failure.detail)"
            timeline.record(.attachmentCreated, detail)
            return .success(Attached(url: request.url, image: nil, unshown: Fallback(.attachmentRejected, detail)))
        }
    }

    /// The download under its deadline: the downloader's own when it enforces one (``ImageDownloading/enforcesTimeout``),
    /// else a race against a timer on the injected clock, where a file that arrives after it lost (the deadline, a
    /// cancellation) is discarded.
    private func download(_ url: URL) async throws -> DownloadedImage {
        let timeout = configuration.effectiveDownloadTimeout
        let limits = DownloadLimits(
            timeout: timeout, maxBytes: configuration.effectiveDownloadMaxBytes,
            contentTypeRule: configuration.sdk.rules.contentType,
            acceptsAnyStatus: !configuration.sdk.rules.checksStatus)
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
        if downloader.enforcesTimeout {
            return try await downloader.download(url, limits: limits, events: events)
        }
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

/// A step of the extension that either gives a value or ends with a fallback (which is not an `Error`).
enum Attempt<Value: Sendable>: Sendable {
    case success(Value)
    case failure(Fallback)

    var value: Value? {
        if case .success(let value) = self { return value }
        return nil
    }

    var fallback: Fallback? {
        if case .failure(let fallback) = self { return fallback }
        return nil
    }
}

extension Fallback {
    /// What a vendor's rules refused, as the result contract says it.
    init(_ refusal: Refusal) {
        self.init(FallbackReason(rawValue: refusal.reason.rawValue) ?? .invalidURL, refusal.detail)
    }
}
