import Foundation

/// A team's own extension handling one notification, seen from the system: the same rules as for the built-in
/// extension (the first content handler call is presented, alert text must remain, iOS's attachment checks), with
/// the process's own ends (a crash, the memory limit, a handler never called) as the fallback reasons.
struct CustomExtensionSession: Sendable {
    let host: any CustomExtensionHosting
    let request: NotificationRequest
    let invocation: CustomExtensionInvocation
    let configuration: DeliveryConfiguration
    let clock: any Clock<Duration>
    let timeline: Timeline

    /// What the session ends with: how the notification was presented and what the process did.
    struct Report: Sendable {
        var content: NotificationContent
        var handed: HandedContent?
        var attachment: Attachment?
        var image: DownloadedImage?
        /// The audio or video shown, when the first attachment is one iOS accepts.
        var media: MediaAttachment?
        var fallback: Fallback?
        var presentedAt: Double
        var run: CustomExtensionRun
        /// Said to the person when the extension did something iOS corrects silently.
        var hint: String?
    }

    func run() async -> Report {
        let identity = host.identity
        timeline.record(
            .extensionStarted,
            "\(identity.principalClass ?? "the extension") from \(identity.source ?? "its folder"), process mode \(invocation.processMode)"
        )
        var report = Report(
            content: request.content, handed: nil, attachment: nil, image: nil, media: nil, fallback: nil,
            presentedAt: 0,
            run: CustomExtensionRun(end: .contentHandlerNeverCalled(.exited), contentHandlerCalls: 0, log: []))
        var presented = false
        var expired = false
        // The first image a vendor's SDK did not attach: the fallback when the notification shows none, as the same
        // vendor's `--sdk` profile says it.
        var vendorFailure: Fallback?
        for await event in host.run(invocation, clock: clock) {
            switch event {
            case .started(let process):
                timeline.record(.extensionProcess, process.summary)
            case .timeWillExpire:
                expired = true
                timeline.record(
                    .timeWillExpire,
                    "budget of \(configuration.extensionBudget.shortDescription) used up: serviceExtensionTimeWillExpire() called"
                )
            case .contentHandler(let handed, let call):
                if call == 1 && !presented {
                    presented = true
                    timeline.record(
                        .contentHandlerCalled,
                        handed.attachments.isEmpty
                            ? "without attachment" : "with \(handed.attachments.count) attachment(s)")
                    present(handed, expired: expired, into: &report)
                } else {
                    timeline.record(
                        .duplicateCompletionIgnored, "content handler call \(call): iOS uses only the first")
                }
            case .request(let line):
                timeline.record(.extensionRequest, line)
            case .attachmentFailed(let detail):
                timeline.record(.attachmentRejected, detail)
            case .wouldSend(let line):
                timeline.record(.sdkWouldSend, line + " (not sent)")
            case .frameworkNote(let line):
                timeline.record(.frameworkNote, line)
            case .notificationCenter(let line):
                timeline.record(.notificationCenter, line)
            case .vendorImageFailed(let reason, let detail):
                timeline.record(.sdkImageFailed, "\(reason.rawValue): \(detail)")
                vendorFailure = vendorFailure ?? Fallback(reason, detail)
            case .ended(let run):
                report.run = run
                if let crossTalk = run.crossTalk { timeline.record(.crossTalk, crossTalk.detail) }
            }
        }
        if presented, report.attachment == nil, report.media == nil, report.fallback == nil, let vendorFailure {
            report.fallback = vendorFailure
        }
        let end = report.run.end
        let peak = report.run.peakFootprintBytes.map {
            "; peak memory footprint \(ByteCount.limit(max(0, $0))) above an empty extension's"
        }
        timeline.record(.extensionEnded, end.detail + (peak ?? ""))
        if !presented {
            report.content = request.content
            report.fallback =
                switch end {
                case .crashed: Fallback(.extensionCrashed, end.detail)
                case .failedToStart: Fallback(.extensionCrashed, "the extension did not start: \(end.detail)")
                case .memoryLimit, .greetedAgain: Fallback(.extensionMemoryLimit, end.detail)
                case .contentHandlerNeverCalled:
                    Fallback(.contentHandlerNeverCalled, "\(end.detail); the original content was shown")
                case .contentHandlerCalled:
                    Fallback(.contentHandlerNeverCalled, "the content handler was not called")
                }
            timeline.record(.presented, "plain, the original content")
            report.presentedAt = timeline.elapsed
            if let crossTalk = report.run.crossTalk {
                report.hint =
                    "State shared with \(crossTalk.other) in one process (a static or shared property, which iOS keeps between notifications): \(crossTalk.detail)."
            }
        }
        return report
    }

    /// The system's side of the first content handler call: what iOS presents.
    private func present(_ handed: HandedContent, expired: Bool, into report: inout Report) {
        report.handed = handed
        if let crossTalk = handed.crossTalk {
            timeline.record(.crossTalk, crossTalk.detail)
            report.hint =
                "State shared with \(crossTalk.other) in one process (a static or shared property, which iOS keeps between notifications): \(crossTalk.detail)."
        }
        report.content = SystemRules.presentedContent(original: request.content, fromExtension: handed.text)
        var centerContent = handed.content
        (centerContent.title, centerContent.subtitle, centerContent.body) = (
            report.content.title, report.content.subtitle, report.content.body
        )
        invocation.center?.presented(centerContent)
        if !handed.text.hasAlertText {
            report.hint = "The extension handed back content without title, subtitle or body; iOS showed the original."
        }
        if expired {
            report.fallback = Fallback(
                .extensionExpired,
                "the content came from serviceExtensionTimeWillExpire() after the budget of \(configuration.extensionBudget.shortDescription)"
            )
        }
        if let first = handed.attachments.first {
            switch first.inspection {
            case .image(let image):
                let attachment = Attachment(url: URL(fileURLWithPath: first.file).absoluteString, image: image)
                let validator = AttachmentValidator(attachmentMaxBytes: configuration.attachmentMaxBytes)
                if let problem = validator.rejection(for: attachment) {
                    timeline.record(.attachmentRejected, problem)
                    report.fallback = Fallback(.attachmentRejected, problem)
                } else {
                    timeline.record(
                        .attachmentCreated, "\(first.type), \(image.format.rawValue) \(image.width)x\(image.height)")
                    report.attachment = attachment
                    report.image = image
                }
            case .notAnImage(let what):
                let problem = "the attached file (\(first.type)) is \(what), not an image"
                timeline.record(.attachmentRejected, problem)
                report.fallback = Fallback(.attachmentRejected, problem)
            case .media(let media, let streams, let posterProblem):
                if let problem = MediaAttachmentRules.rejection(for: media, streams: streams) {
                    timeline.record(.attachmentRejected, "\(first.type): \(problem)")
                    report.fallback = Fallback(.attachmentRejected, problem)
                } else {
                    let requested = handed.content.attachments.first?.options.thumbnailTime
                    let note = Self.posterNote(media, requested: requested, problem: posterProblem)
                    timeline.record(
                        .attachmentCreated, "\(first.type), \(media.summary)" + (note.map { "; \($0)" } ?? ""))
                    report.media = media
                }
            case .notMedia(let what):
                let kind = TypeDeclaration.named(first.type)?.attachment?.rawValue ?? "media"
                let problem = "the attached file (\(first.type), \(kind)) is \(what)"
                timeline.record(.attachmentRejected, problem)
                report.fallback = Fallback(.attachmentRejected, problem)
            }
        }
        var shown = "plain"
        if report.attachment != nil {
            shown = "rich, with image"
        } else if let media = report.media {
            shown = "rich, with \(media.kind.rawValue)"
        }
        timeline.record(.presented, shown)
        report.presentedAt = timeline.elapsed
    }

    /// What the timeline says of a video's poster beyond its time: a thumbnail time past the end (the last frame is
    /// shown), or no frame at all (iOS shows the video without one).
    static func posterNote(_ media: MediaAttachment, requested: Double?, problem: String?) -> String? {
        guard media.kind == .video else { return nil }
        if let problem { return "no poster frame: \(problem)" }
        guard let requested, let shown = media.posterTime else { return nil }
        // A duration of 0 is one the container does not give: nothing to compare with.
        if media.duration > 0, requested > media.duration {
            return
                "thumbnail time \(MediaAttachment.seconds(requested)) is past the video's \(MediaAttachment.seconds(media.duration)): the poster is its last frame, at \(MediaAttachment.seconds(shown))"
        }
        if requested < 0 {
            return
                "thumbnail time \(MediaAttachment.seconds(requested)) is before the start: the poster is the first frame"
        }
        return nil
    }
}
