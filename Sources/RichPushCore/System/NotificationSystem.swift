import Foundation
public import Logging

/// The emulated iPhone: receives a payload, decides whether the service extension runs, runs it,
/// validates what it attached, and reports what the person sees.
///
/// With a `decoder`, an attachment iOS accepted is also decoded once the notification is presented, through
/// `computePool` (CPU-bound work kept apart from the downloads in flight); the attachment's `decoded` says
/// whether it gave pixels. Decoding never changes what was presented, and its queueing is not in `elapsed`.
/// With `verdicts`, an attachment whose bytes were decoded before (same SHA-256) reuses that verdict.
public struct NotificationSystem: Sendable {
    public var configuration: DeliveryConfiguration
    private let downloader: any ImageDownloading
    private let receiptSender: (any ReceiptSending)?
    private let clock: any Clock<Duration>
    private let logger: Logger
    private let payloadDecoder = PayloadDecoder()
    private let imageDecoder: (any ImageDecoding)?
    private let computePool: ComputePool
    private let verdicts: DecodeVerdictCache?
    /// A team's own extension, run instead of the emulated one; nil runs the emulated one (`configuration.sdk`).
    private let customExtension: (any CustomExtensionHosting)?
    /// What the phone remembers between the notifications it shows.
    private let ledger = PhoneLedger()
    /// What the notification center shows for the app, and the categories an extension registered.
    public let delivered = DeliveredNotifications()

    public init(
        downloader: any ImageDownloading, clock: any Clock<Duration> = CancellableSleepClock(),
        configuration: DeliveryConfiguration = DeliveryConfiguration(),
        logger: Logger = Logger(label: "richpush"), receiptSender: (any ReceiptSending)? = nil,
        decoder: (any ImageDecoding)? = nil, computePool: ComputePool = ComputePool(),
        verdicts: DecodeVerdictCache? = nil, customExtension: (any CustomExtensionHosting)? = nil
    ) {
        self.customExtension = customExtension
        self.downloader = downloader
        self.imageDecoder = decoder
        self.verdicts = verdicts
        self.computePool = computePool
        self.receiptSender = receiptSender
        self.clock = clock
        self.configuration = configuration
        self.logger = logger
    }

    /// Delivers one payload, under the system's configuration with the input's own settings applied. Never
    /// throws: every failure is part of the result, which carries the input's origin (its `file`, `transport` and
    /// `apns`) from the start.
    public func deliver(
        _ input: DeliveryInput, observer: (@Sendable (DeliveryProgress) -> Void)? = nil
    ) async -> DeliveryResult {
        var result = await deliverContent(input, observer: observer)
        present(&result, configuration: input.settings.applied(to: configuration))
        return result
    }

    /// What the phone draws for the delivered content, and the person's answer to it when the settings give one.
    func present(_ result: inout DeliveryResult, configuration: DeliveryConfiguration) {
        let thread = result.deliveredContent?.threadIdentifier ?? result.threadID ?? ""
        let shownInThread = result.delivered && result.style != .silent ? ledger.present(inThread: thread) : 0
        let categories = delivered.categories(over: configuration.categories)
        let badgeBefore = result.badgeWhenPresented ?? ledger.currentBadge
        guard
            let presentation = NotificationPresentation(
                of: result, categories: categories, device: configuration.device,
                threadCount: shownInThread, badgeBefore: badgeBefore)
        else {
            if configuration.respond != nil, result.delivered {
                result.addHint("given.respond was not used: nothing was shown to answer.")
            }
            return
        }
        result.presentation = presentation
        // Only a notification that changes the badge sets it: one that leaves it must not put back a badge a later
        // notification's extension set meanwhile (`setBadgeCount(_:)`).
        if presentation.appBadge != badgeBefore { ledger.setBadge(presentation.appBadge) }
        remember(&result)
        // A category the app did not register is a mistake to point out; one richpush was not told about is not.
        if presentation.category?.registered == false, let problem = presentation.category?.problem {
            result.addHint(problem + ".")
        }
        for note in presentation.delivery?.notes ?? [] {
            result.addHint(note + ".")
        }
        guard let respond = configuration.respond else { return }
        let identifier = result.apns?.id ?? result.file
        switch NotificationResponse.answer(
            respond, to: presentation, categories: categories, requestIdentifier: identifier,
            content: result.content, locked: configuration.device.locked)
        {
        case .success(let response): result.response = response
        case .failure(let refusal): result.addHint("given.respond could not be given: \(refusal.reason).")
        }
    }

    /// The presented notification joins what the notification center shows; the local notifications its extension
    /// added (`add(_:)`) are presented after it, as iOS presents a request without a trigger at once.
    private func remember(_ result: inout DeliveryResult) {
        var content = result.deliveredContent?.content ?? result.requested ?? HostContent()
        content.title = result.content.title
        content.subtitle = result.content.subtitle
        content.body = result.content.body
        content.attachments = []
        content.communication = nil
        let identifier = result.requestIdentifier ?? result.file
        delivered.deliver(
            .init(
                identifier: identifier, label: result.file, content: content, userInfo: result.userInfo ?? "{}",
                date: Date()))
        for request in result.notificationCenter?.added ?? [] {
            // Already in the notification center since this one's handler was called (NotificationCenterSession): said
            // again here for a notification whose extension never called it.
            let label = "\(result.file) add(\(request.identifier.prefix(80)))"
            delivered.deliver(
                .init(identifier: request.identifier, label: label, content: request.content, date: Date()))
            _ = ledger.present(inThread: request.content.threadIdentifier)
            if let badge = request.content.badge { ledger.setBadge(max(0, badge)) }
            result.timeline.append(
                TimelineEvent(
                    at: result.timeline.last?.at ?? 0, .notificationCenter,
                    "local notification \"\(request.identifier.prefix(80))\" presented after this one: \(request.content.title.prefix(200))"
                ))
        }
    }

    private func deliverContent(
        _ input: DeliveryInput, observer: (@Sendable (DeliveryProgress) -> Void)?
    ) async -> DeliveryResult {
        let configuration = input.settings.applied(to: self.configuration)
        let limits = EffectiveLimits(configuration)
        let file = input.origin.name
        let appState = input.appState
        func rejectedResult(_ rejection: PayloadRejection, timeline: Timeline) -> DeliveryResult {
            var result = rejected(rejection, origin: input.origin, appState: appState, timeline: timeline)
            result.limits = limits
            result.sdk = configuration.sdk.name
            return result
        }
        let bytes: [UInt8]
        switch input.payload {
        case .oversized(let size):
            // Refused unread: a file too large to be a payload.
            let timeline = Timeline(clock: clock, logger: logger(for: file), observer: nil)
            timeline.record(.received, "\(size) bytes, app \(appState.rawValue)")
            return rejectedResult(.oversizedFile(bytes: size), timeline: timeline)
        case .bytes(let payload):
            bytes = payload
        }
        observer?(.limits(limits))
        let timeline = Timeline(clock: clock, logger: logger(for: file), observer: observer)
        timeline.record(.received, "\(bytes.count) bytes, app \(appState.rawValue)")

        let request: NotificationRequest
        do {
            request = try payloadDecoder.decode(bytes)
        } catch {
            return rejectedResult(error, timeline: timeline)
        }
        timeline.notify(.decoded(request.content))

        // The emulated extension's image URLs: the configured key paths, or a vendor's own keys.
        let resolved = configuration.sdk.imageRequests(in: request.payload, policy: configuration.imagePolicy).first
            .map { (keyPath: $0.keyPath, url: $0.url) }
        var result = DeliveryResult(
            file: file, appState: appState, style: .plain, content: request.content,
            imageURL: resolved?.url,
            hint: Self.hint(
                for: request, resolvedImage: resolved, configuration: configuration,
                teamsExtension: customExtension != nil && configuration.runsCustomExtension),
            source: request.source, pushID: Self.pushID(in: request.payload, keys: configuration.pushIDKeys),
            collapseID: request.collapseID ?? input.origin.apns?.collapseID)
        result.transport = input.origin.transport
        result.apns = input.origin.apns
        result.requestIdentifier = input.origin.apns?.id ?? UUID().uuidString
        result.userInfo = JSONWriter.string(.object(request.payload))
        result.limits = limits
        result.sdk = configuration.sdk.name
        result.report(attributesOf: request)
        for sentence in PhoneLints.sentences(for: request, priority: input.origin.apns?.priority) {
            result.addHint(sentence)
        }

        switch SystemRules.decide(request: request, appState: appState, hasImageURL: resolved != nil) {
        case .silent(let fallback):
            result.style = .silent
            result.fallback = fallback
            timeline.record(.presented, "nothing shown: no alert text")
        case .plain(let fallback):
            result.fallback = fallback
            timeline.record(
                .presented, appState == .foreground ? "plain (app in foreground: as its willPresent asks)" : "plain")
        case .runExtension:
            result.extensionInvoked = true
            if let customExtension, configuration.runsCustomExtension {
                await runCustomExtension(
                    customExtension, request: request, origin: input.origin,
                    configuration: configuration, timeline: timeline, into: &result)
                return result
            }
            result.extensionIdentity = .emulated(configuration.sdk)
            var session = ServiceExtensionSession(
                request: request, imageURL: resolved?.url, downloader: downloader, clock: clock,
                configuration: configuration, timeline: timeline)
            if let url = configuration.receiptURL, let pushID = result.pushID {
                // A front end without a sender cannot send; it says so rather than sending nothing silently.
                session.receipt = (
                    DisplayReceipt(url: url, pushID: pushID), receiptSender ?? UnavailableReceiptSender()
                )
            }
            var presentedAt: Double?
            var decoding: Task<DecodeVerdict?, Never>?
            var decodeAfterwards: DownloadedImage?
            // With no receipt in flight the session ends with the content handler, so the decode simply follows it
            // (a task of its own per payload was a twentieth of a replay's processor time).
            let decodeBesideTheSession = session.receipt != nil
            let report = await session.run { outcome in
                // The system presents the notification as soon as the content handler is called; a receipt may
                // still be in flight.
                result.content = SystemRules.presentedContent(
                    original: request.content, fromExtension: outcome.content)
                result.fallback = outcome.fallback
                if let attachment = outcome.attachment {
                    let validator = AttachmentValidator(attachmentMaxBytes: configuration.attachmentMaxBytes)
                    if let problem = validator.rejection(for: attachment) {
                        timeline.record(.attachmentRejected, problem)
                        result.fallback = Fallback(.attachmentRejected, problem)
                        if let image = outcome.image { await downloader.discard(image) }
                    } else {
                        result.attachment = attachment
                        result.style = .rich
                    }
                }
                result.addHint(HintEngine.hint(for: result.fallback))
                timeline.record(.presented, result.style == .rich ? "rich, with image" : "plain")
                presentedAt = timeline.elapsed
                if result.style == .rich, let image = outcome.image {
                    if decodeBesideTheSession {
                        decoding = decodeBeside(image, timeline: timeline)
                    } else {
                        decodeAfterwards = image
                    }
                }
            }
            var verdict: DecodeVerdict?
            if let decoding {
                verdict = await withTaskCancellationHandler {
                    await decoding.value
                } onCancel: {
                    decoding.cancel()
                }
            } else if let decodeAfterwards {
                verdict = await decode(decodeAfterwards, timeline: timeline)
            }
            if let verdict { result.record(verdict) }
            if let receipt = report.receipt {
                result.receipt = receipt
                result.addHint(receipt.hint)
            }
            result.timeline = timeline.snapshot
            result.elapsed = presentedAt ?? timeline.elapsed
            return result
        }
        result.timeline = timeline.snapshot
        result.elapsed = timeline.elapsed
        return result
    }

    /// The `.runExtension` case for a team's own extension: its session in a process of its own, then the
    /// attachment it handed over decoded as the built-in extension's is.
    private func runCustomExtension(
        _ host: any CustomExtensionHosting, request: NotificationRequest,
        origin: DeliveryOrigin, configuration: DeliveryConfiguration, timeline: Timeline,
        into result: inout DeliveryResult
    ) async {
        let identifier = result.requestIdentifier ?? UUID().uuidString
        let center = NotificationCenterSession(
            delivered: delivered, ledger: ledger, device: configuration.device, categories: configuration.categories,
            file: result.file, identifier: identifier, userInfo: result.userInfo ?? "{}")
        let session = CustomExtensionSession(
            host: host, request: request,
            invocation: CustomExtensionInvocation(
                identifier: identifier, request: request,
                budget: configuration.extensionBudget, label: result.file,
                processMode: configuration.extensionProcess, memoryLimitBytes: configuration.extensionMemoryBytes,
                center: center),
            configuration: configuration, clock: clock, timeline: timeline)
        let report = await session.run()
        let calls = center.currentReport
        if calls.calls > 0 { result.notificationCenter = calls }
        result.badgeWhenPresented = center.badgeWhenPresented
        result.extensionIdentity = host.identity
        result.content = report.content
        result.fallback = report.fallback
        result.deliveredContent = report.handed
        result.communication = report.handed?.communication
        result.crossTalk = report.handed?.crossTalk ?? report.run.crossTalk
        result.extensionProcess = report.run.process
        result.contentHandlerCalls = report.run.contentHandlerCalls
        result.extensionLog = report.run.log
        result.addHint(report.hint)
        if let attachment = report.attachment, let image = report.image {
            result.attachment = attachment
            result.style = .rich
            if let verdict = await decode(image, timeline: timeline) { result.record(verdict) }
        }
        // Audio or video iOS accepted is shown (a player, a video's poster): the notification is rich, as with an
        // image.
        if let media = report.media {
            result.media = media
            result.style = .rich
        }
        result.timeline = timeline.snapshot
        result.elapsed = report.presentedAt
    }

    /// Decodes a presented attachment's file in the compute pool, as a task beside whatever the extension still
    /// has in flight (a receipt). Nil without a decoder.
    private func decodeBeside(_ image: DownloadedImage, timeline: Timeline) -> Task<DecodeVerdict?, Never>? {
        guard imageDecoder != nil else { return nil }
        return Task { await decode(image, timeline: timeline) }
    }

    /// Decodes a presented attachment's file in the compute pool and records the verdict. Nil without a decoder,
    /// or when cancelled before it started.
    private func decode(_ image: DownloadedImage, timeline: Timeline) async -> DecodeVerdict? {
        guard let imageDecoder else { return nil }
        if Task.isCancelled { return nil }
        let verdict: DecodeVerdict
        var reused = false
        if let verdicts {
            // A verdict already known takes no compute slot; only a first decode queues for one.
            let lookup = await verdicts.verdict(for: .init(sha256: image.sha256, format: image.format)) {
                await computePool.run { await imageDecoder.verify(image.file, format: image.format) }
            }
            verdict = lookup.verdict
            reused = lookup.reused
        } else {
            let decoded = await computePool.run {
                Task.isCancelled ? nil : await imageDecoder.verify(image.file, format: image.format)
            }
            guard let decoded else { return nil }
            verdict = decoded
        }
        let note = reused ? ", the verdict of an earlier attachment with the same bytes" : ""
        switch verdict {
        case .decoded:
            let frames = image.frames > 1 ? ", \(image.frames) frames" : ""
            timeline.record(
                .imageDecoded, "\(image.format.rawValue) \(image.width)x\(image.height)\(frames)\(note)")
        case .notDecoded(let sentence):
            timeline.record(.imageDecodeFailed, sentence + note)
        }
        return verdict
    }

    /// Lets the attachment file of a delivered result go, once nothing will read it again (its result is
    /// reported): a long replay then keeps only the files of the payloads in flight.
    public func discardAttachment(of result: DeliveryResult) async {
        if let customExtension, result.extensionIdentity?.kind == .custom {
            // A team's extension's audio or video is kept with its poster frame beside it.
            let files = [result.attachment?.file, result.media?.file, result.media?.poster?.file.path]
            for file in files.compactMap(\.self) { await customExtension.discardAttachment(atPath: file) }
            return
        }
        guard let file = result.attachment?.file else { return }
        await downloader.discardAttachment(atPath: file)
    }

    private func rejected(
        _ rejection: PayloadRejection, origin: DeliveryOrigin, appState: AppState, timeline: Timeline
    ) -> DeliveryResult {
        timeline.record(.rejected, "\(rejection.reason.rawValue): \(rejection.detail)")
        var result = DeliveryResult(
            file: origin.name, appState: appState, delivered: false, rejection: rejection, style: .silent,
            timeline: timeline.snapshot, elapsed: timeline.elapsed)
        result.transport = origin.transport
        result.apns = origin.apns
        result.collapseID = origin.apns?.collapseID
        return result
    }

    /// The payload's hint. A vendor's extension reads fixed keys, so instead of naming an `--image-key` the hint
    /// says where that SDK looks; a team's own extension (`--extension`) reads the keys its code reads, so neither.
    static func hint(
        for request: NotificationRequest, resolvedImage: (keyPath: PayloadKeyPath, url: String)?,
        configuration: DeliveryConfiguration, teamsExtension: Bool = false
    ) -> String? {
        let engine = HintEngine(policy: configuration.imagePolicy)
        if teamsExtension { return engine.hint(for: request, resolvedImage: resolvedImage, suggestingImageKeys: false) }
        guard !configuration.sdk.rules.usesConfiguredImageKeys else {
            return engine.hint(for: request, resolvedImage: resolvedImage)
        }
        let general = engine.hint(for: request, resolvedImage: resolvedImage, suggestingImageKeys: false)
        return general ?? (resolvedImage == nil ? configuration.sdk.missedImageHint(in: request.payload) : nil)
    }

    private func logger(for file: String) -> Logger {
        var logger = self.logger
        logger[metadataKey: "file"] = "\(file)"
        return logger
    }

    /// Extensions that report display statistics send the `push_id` custom key when a notification is shown:
    /// the first of top-level `push_id`, `data.push_id`, `aps.alert.push_id` and the configured key paths that
    /// holds a string or a number.
    static func pushID(in payload: JSONObject, keys: [PayloadKeyPath] = []) -> String? {
        for key in DeliveryConfiguration.defaultPushIDKeys + keys {
            switch key.value(in: payload) {
            case .string(let id)?: return id
            case .number(let number)?: return JSONWriter.format(number)
            default: continue
            }
        }
        return nil
    }
}

/// The sender of a system built without one: every receipt fails, saying why.
struct UnavailableReceiptSender: ReceiptSending {
    func send(_ receipt: DisplayReceipt) async throws -> Int {
        throw ReceiptFailure("not sent: this front end has no receipt sender")
    }
}
