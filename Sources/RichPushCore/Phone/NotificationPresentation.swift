/// What the phone draws for one delivered notification, view by view: the one answer the JSON result's
/// `presentation`, the TUI and the HTML report all draw from. Nothing else decides what is shown, where text is cut
/// or which buttons appear.
public struct NotificationPresentation: Sendable, Equatable {
    /// The lock screen row, the banner and the expanded view, in that order.
    public var views: [PresentedView]
    /// The category the notification names and whether the app registered it.
    public var category: PresentedCategory?
    /// Sentences a tester needs about what is shown ("category X is not registered by the app: no buttons").
    public var notes: [String]
    /// How far to trust the layout (``PresentationRules/approximation``).
    public var approximation: String
    /// How it reaches the person on the phone as it is (``DeliveryRules``); nil when built without a phone.
    public var delivery: PresentedDelivery?
    /// The app icon's badge after this notification: what `aps.badge` set, else what it was (0: none). In the
    /// foreground it changes only when the app's `willPresent` returns `.badge`.
    public var appBadge: Int = 0
    /// Why the text is hidden behind a placeholder in the views that hide it (Show Previews); nil when shown.
    public var previewsHidden: String?
    /// The stack it joins on the lock screen and in Notification Center (``GroupingRules``); nil with grouping off.
    public var group: NotificationGroup?
    /// The phone's Notification Grouping setting that chose ``group``.
    public var grouping: DeviceState.Grouping = .automatic
    /// How the lock screen draws its notifications (Display As: count, stack or list).
    public var lockScreenDisplay: DeviceState.LockScreenDisplay = .stack

    /// The stack the TUI and the HTML report draw it in (``GroupingRules/drawnStack(_:grouping:)``).
    public var drawnStack: NotificationGroup? { GroupingRules.drawnStack(group, grouping: grouping) }

    public init(
        views: [PresentedView], category: PresentedCategory? = nil, notes: [String] = [],
        approximation: String = PresentationRules.approximation
    ) {
        self.views = views
        self.category = category
        self.notes = notes
        self.approximation = approximation
    }

    /// The view of this kind.
    public func view(_ kind: NotificationView) -> PresentedView? { views.first { $0.view == kind } }
}

/// One view of a notification, exactly as drawn.
public struct PresentedView: Sendable, Equatable {
    public var view: NotificationView
    /// The app's name above the text (a communication notification's sender instead).
    public var appName: String
    public var timestamp: String
    public var title: PresentedText
    public var subtitle: PresentedText
    public var body: PresentedText
    /// The square picture beside the text (lock screen, banner); nil in the expanded view or when hidden.
    public var thumbnail: PresentedMedia?
    /// The picture or player across the view's width (expanded only).
    public var media: PresentedMedia?
    /// The buttons this view shows, numbered from 1.
    public var actions: [PresentedAction]
    /// The category's actions this view has no room for.
    public var actionsLeftOut: Int
    /// The app icon's badge after this notification (`aps.badge`); nil leaves it as it was.
    public var badge: Int?

    public init(
        view: NotificationView, appName: String, timestamp: String, title: PresentedText, subtitle: PresentedText,
        body: PresentedText, thumbnail: PresentedMedia? = nil, media: PresentedMedia? = nil,
        actions: [PresentedAction] = [], actionsLeftOut: Int = 0, badge: Int? = nil
    ) {
        self.view = view
        self.appName = appName
        self.timestamp = timestamp
        self.title = title
        self.subtitle = subtitle
        self.body = body
        self.thumbnail = thumbnail
        self.media = media
        self.actions = actions
        self.actionsLeftOut = actionsLeftOut
        self.badge = badge
    }
}

/// A field of text as a view shows it: the lines it gets, and whether anything was cut.
public struct PresentedText: Sendable, Equatable {
    /// The whole text, as delivered.
    public var full: String
    /// The lines shown, the last ending in "…" when the text was cut.
    public var lines: [String]
    public var truncated: Bool
    /// The most lines the view gives this field, and their width in display columns.
    public var maxLines: Int
    public var columns: Int

    public init(full: String, lines: [String], truncated: Bool, maxLines: Int, columns: Int) {
        self.full = full
        self.lines = lines
        self.truncated = truncated
        self.maxLines = maxLines
        self.columns = columns
    }

    /// The text laid out in `maxLines` lines of `columns`.
    public init(_ full: String, maxLines: Int, columns: Int) {
        let fitted = TextLayout.fit(full, width: columns, maxLines: maxLines)
        self.init(full: full, lines: fitted.lines, truncated: fitted.truncated, maxLines: maxLines, columns: columns)
    }

    /// What a reader sees, the lines joined.
    public var visible: String { lines.joined(separator: "\n") }
}

/// A picture (or a player) in a view.
public struct PresentedMedia: Sendable, Equatable {
    public enum Kind: String, Sendable { case image, video, audio }
    public var kind: Kind
    /// The image file drawn: the attachment, or a video's poster frame; nil for audio.
    public var file: String?
    /// The drawn image's size in pixels.
    public var width: Int
    public var height: Int
    /// The part of the image shown, in unit coordinates, from the extension's
    /// `UNNotificationAttachmentOptionsThumbnailClippingRectKey` (thumbnails only); nil: all of it, centred square.
    public var crop: UnitRect?
    /// Seconds of audio or video.
    public var duration: Double?
    /// The frame drawn: `UNNotificationAttachmentOptionsThumbnailTimeKey` (a video's seconds, an animated image's
    /// frame); nil: the first.
    public var frameTime: Double?
    /// The attachment's file, for a player (video or audio).
    public var source: String?

    public init(
        kind: Kind, file: String?, width: Int, height: Int, crop: UnitRect? = nil, duration: Double? = nil,
        frameTime: Double? = nil, source: String? = nil
    ) {
        self.kind = kind
        self.file = file
        self.width = width
        self.height = height
        self.crop = crop
        self.duration = duration
        self.frameTime = frameTime
        self.source = source
    }
}

/// A rectangle in unit coordinates (0 to 1), origin at the top left.
public struct UnitRect: Sendable, Equatable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The rect an extension's clipping-rect option gives (`[x, y, width, height]`), clamped to the image; nil when
    /// it is not four numbers or leaves nothing.
    public init?(clipping values: [Double]?) {
        guard let values, values.count == 4, values.allSatisfy(\.isFinite) else { return nil }
        let x = min(max(values[0], 0), 1)
        let y = min(max(values[1], 0), 1)
        let width = min(max(values[2], 0), 1 - x)
        let height = min(max(values[3], 0), 1 - y)
        guard width > 0, height > 0 else { return nil }
        self.init(x: x, y: y, width: width, height: height)
    }
}

/// A button, as the view draws it.
public struct PresentedAction: Sendable, Equatable {
    /// Its number in the view, from 1 (the TUI's key that taps it).
    public var number: Int
    public var identifier: String
    public var title: String
    public var destructive: Bool
    public var authenticationRequired: Bool
    public var foreground: Bool
    public var icon: String?
    public var textInput: NotificationAction.TextInput?

    public init(number: Int, action: NotificationAction) {
        self.number = number
        identifier = action.identifier
        title = action.title
        destructive = action.options.contains(.destructive)
        authenticationRequired = action.options.contains(.authenticationRequired)
        foreground = action.options.contains(.foreground)
        icon = action.icon
        textInput = action.textInput
    }
}

/// The category a notification names, as the presentation found it.
public struct PresentedCategory: Sendable, Equatable {
    public var identifier: String
    /// Whether the app registered it; nil when richpush was given no categories (`--categories`).
    public var registered: Bool?

    public init(identifier: String, registered: Bool?) {
        self.identifier = identifier
        self.registered = registered
    }

    /// What a tester needs to know when the buttons are missing or unknown; nil when the app registered it.
    public var problem: String? {
        switch registered {
        case true?: nil
        case false?: "category \(identifier) is not registered by the app: no buttons"
        case nil:
            "category \(identifier): the app's categories were not given (--categories), so its buttons are not known"
        }
    }
}
