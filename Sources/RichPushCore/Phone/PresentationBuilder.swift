import Foundation

extension NotificationPresentation {
    /// What the phone draws for a result: nil when it draws nothing (a refused payload, a silent one).
    ///
    /// The text is the content as presented (the extension's, when it changed it); the picture is the attachment the
    /// system accepted, with the extension's thumbnail options; the buttons are the registered category's.
    /// `device` is the phone it is shown on; `threadCount` how many notifications of its thread the phone has had,
    /// this one included (a hidden preview's `%u`); `badgeBefore` the app icon's badge before it.
    public init?(
        of result: DeliveryResult, categories: AppCategories?, device: DeviceState = .newPhone, threadCount: Int = 1,
        badgeBefore: Int = 0,
        rules: PresentationRules = .iOS
    ) {
        guard result.delivered, result.rejection == nil, result.style != .silent else { return nil }
        let handed = result.deliveredContent?.content
        let options = handed?.attachments.first?.options
        var notes: [String] = []

        // The category: the extension may change it (`categoryIdentifier`), and the changed one counts.
        let categoryName = handed.map(\.categoryIdentifier).flatMap { $0.isEmpty ? nil : $0 } ?? result.category
        let registered = categoryName.flatMap { categories?.category($0) }
        let category = categoryName.map {
            PresentedCategory(identifier: $0, registered: categories.map { _ in registered != nil })
        }
        let actions = registered?.actions ?? []
        if let problem = category?.problem { notes.append(problem) }

        let picture = Self.picture(of: result, frameTime: options?.thumbnailTime)
        let thumbnailHidden = options?.thumbnailHidden == true
        if picture != nil, thumbnailHidden {
            notes.append("the extension hid the thumbnail (UNNotificationAttachmentOptionsThumbnailHiddenKey)")
        }
        var thumbnail = thumbnailHidden ? nil : picture
        if let crop = UnitRect(clipping: options?.thumbnailClippingRect) {
            thumbnail?.crop = crop
        } else if options?.thumbnailClippingRect != nil {
            notes.append("the thumbnail's clipping rect is not four numbers inside the image: the whole image is shown")
        }

        let shown = handed ?? result.requested ?? HostContent()
        let delivery = DeliveryRules.decide(
            content: shown, appState: result.appState, device: device, isCommunication: result.communication != nil)
        notes += delivery.notes
        let hiding = PreviewRules.hidden(device: device)

        let appName = result.communication?.senderName ?? categories?.appName ?? "App"
        let titleColumns = max(1, rules.lineColumns - TextWidth.of(rules.timestamp) - rules.timestampGap)
        views = NotificationView.allCases.map { kind in
            let beside = kind == .expanded ? nil : thumbnail
            let textColumns = max(1, rules.lineColumns - (beside == nil ? 0 : rules.thumbnailColumns))
            let shownActions = min(actions.count, rules.actions[kind] ?? 0)
            let text =
                hiding.contains(kind)
                ? PreviewRules.placeholder(for: result.content, category: registered, threadCount: threadCount)
                : result.content
            return PresentedView(
                view: kind, appName: appName, timestamp: rules.timestamp,
                title: PresentedText(text.title, maxLines: rules.titleLines[kind] ?? 1, columns: titleColumns),
                subtitle: PresentedText(
                    text.subtitle, maxLines: rules.subtitleLines[kind] ?? 1, columns: textColumns),
                body: PresentedText(text.body, maxLines: rules.bodyLines[kind] ?? 1, columns: textColumns),
                thumbnail: beside,
                media: kind == .expanded ? picture : nil,
                actions: actions.prefix(shownActions).enumerated().map {
                    PresentedAction(number: $0.offset + 1, action: $0.element)
                },
                actionsLeftOut: actions.count - shownActions,
                badge: handed?.badge ?? result.badge)
        }
        self.category = category
        self.notes = notes
        approximation = PresentationRules.approximation
        self.delivery = delivery
        let setsBadge = result.appState != .foreground || device.foregroundOptions.contains(.badge)
        appBadge = setsBadge ? max(0, handed?.badge ?? result.badge ?? badgeBefore) : badgeBefore
        previewsHidden = hiding.isEmpty ? nil : PreviewRules.reason(device: device)
        // The thread of the content shown (the extension may set its own), else the payload's.
        group = GroupingRules.group(
            threadIdentifier: (handed ?? result.requested)?.threadIdentifier ?? result.threadID ?? "",
            grouping: device.grouping)
        grouping = device.grouping
        lockScreenDisplay = device.lockScreen
    }

    /// The attachment as a picture: the accepted image, a video's poster frame with its duration, or audio's
    /// duration (no picture; the views draw a player's symbol).
    private static func picture(of result: DeliveryResult, frameTime: Double?) -> PresentedMedia? {
        if let attachment = result.attachment {
            return PresentedMedia(
                kind: .image, file: attachment.file, width: attachment.width, height: attachment.height,
                frameTime: attachment.frames > 1 ? frameTime : nil)
        }
        if let media = result.media {
            switch media.kind {
            case .video:
                return PresentedMedia(
                    kind: .video, file: media.poster?.file.path, width: media.poster?.width ?? media.width ?? 0,
                    height: media.poster?.height ?? media.height ?? 0, duration: media.duration,
                    frameTime: media.posterTime, source: media.file)
            case .audio:
                return PresentedMedia(
                    kind: .audio, file: nil, width: 0, height: 0, duration: media.duration, source: media.file)
            }
        }
        return nil
    }
}
