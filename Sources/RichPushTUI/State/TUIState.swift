import RichPushCore

/// Everything the notification-center screen shows, as one value. Only `reduce` changes it;
/// `render` draws it.
struct TUIState: Equatable, Sendable {
    /// The smallest terminal the layout fits.
    static let minimumSize = TerminalSize(columns: 60, rows: 16)

    /// The emulated app's state, which the next payload is sent in.
    var appState: AppState
    /// The phone's state the next payload is delivered on (`L`, `F`, `M`, `S` change it); the command line's phone
    /// flags start it. A payload's own `given.device` still patches over it.
    var phone: DeviceState = .newPhone
    /// The Scheduled Summary delivered last (`D`), while it is open over the screen.
    var openSummary: ScheduledSummary?
    /// The SDK whose service extension payloads sent from the library go through (`p` cycles it).
    var sdk: SDKProfile = .requirement
    /// The limits of the command line: quoted for a notification until its delivery reports its own
    /// (which include the payload's settings).
    var configuredLimits: EffectiveLimits
    /// The payload folder as the user named it.
    var libraryRoot: String
    /// Payload files relative to `libraryRoot`, sorted.
    var library: [String] = []
    /// The payloads written for a team's extension (`given.extension`), by relative path: marked in the library, and
    /// sent only when this notification center runs that extension.
    var libraryExtensionMarks: [String: ExtensionMark] = [:]
    var libraryError: String?
    var librarySelection = 0
    /// Newest first.
    var notifications: [NotificationEntry] = []
    /// The thread-ids whose stacks are expanded.
    var expandedThreads: Set<NotificationGroup> = []
    /// The selected row of `rows`.
    var notificationSelection = 0
    var focus: Focus = .library
    /// The notification whose detail view is open.
    var detailID: Int?
    var detailScroll = 0
    var isHelpVisible = false
    var banner: Banner?
    /// A one-line message in the footer, e.g. what was just sent.
    var status: String?
    var size: TerminalSize
    /// Seconds since the UI started.
    var now: Double = 0
    /// Local time of day, in seconds after midnight, when `now` was 0; arrival times are derived from it.
    var startTimeOfDay: Double
    var nextID = 1
    /// What the header says about the push endpoint, e.g. "listening 127.0.0.1:2197"; nil when not listening.
    var listening: String?
    /// What the help overlay says about the push endpoint (its URL, the CA certificate's path).
    var endpointHelp: [String] = []
    /// How many finished notifications are kept, newest first; older ones are dropped.
    var capacity = 1000
    /// Notifications dropped to keep `capacity`.
    var droppedCount = 0
    /// The notification of each push in flight that arrived over the network, by push ID.
    var networkPushes: [String: Int] = [:]
    var isQuitting = false
    /// How images are drawn; nil shows text only (`--images none`, or a terminal that cannot show them).
    var images: ImageSettings?
    /// Attachments drawn as cells, per attachment, purpose and size.
    var renderedImages: [ImageKey: RenderedImage] = [:]
    /// The detail view's animation clock (animated GIFs).
    var animation = AnimationClock()
    /// The categories the app registers (`--categories`): what a response to a notification is checked against.
    var categories: AppCategories?
    /// The layout rules the phone card is drawn at (its width in columns, the thumbnail's allowance); the text in
    /// it is the presentation's, cut by the same rules.
    var rules: PresentationRules = .iOS
    /// Which of the phone's views the detail view draws (`v` cycles them).
    var detailView: NotificationView = .expanded
    /// The one-line text prompt of a text-input button, while it is open: every key goes to it.
    var prompt: TextPrompt?

    init(
        appState: AppState, configuredLimits: EffectiveLimits = EffectiveLimits(DeliveryConfiguration()),
        libraryRoot: String = "payloads",
        library: [String] = [], size: TerminalSize = TerminalSize(columns: 120, rows: 40), startTimeOfDay: Double = 0
    ) {
        self.appState = appState
        self.configuredLimits = configuredLimits
        self.libraryRoot = libraryRoot
        self.library = library
        self.size = size
        self.startTimeOfDay = startTimeOfDay
    }

    var selectedLibraryFile: String? {
        library.indices.contains(librarySelection) ? library[librarySelection] : nil
    }

    /// The notification center's rows: single notifications and stacks of one thread-id.
    var rows: [NotificationRow] {
        NotificationRow.rows(of: notifications, expanded: expandedThreads, grouping: phone.grouping)
    }

    var selectedRow: NotificationRow? {
        let rows = self.rows
        return rows.indices.contains(notificationSelection) ? rows[notificationSelection] : nil
    }

    var selectedNotification: NotificationEntry? { selectedRow?.entry }

    var detailEntry: NotificationEntry? {
        detailID.flatMap { id in notifications.first { $0.id == id } }
    }

    var inFlightCount: Int { notifications.count { $0.isInFlight } }

    /// The notifications waiting for the next Scheduled Summary, newest first.
    var summaryWaiting: [NotificationEntry] { notifications.filter(\.isWaitingForSummary) }

    /// Whether something on screen changes with time alone (progress countdowns, the banner).
    var isAnimating: Bool { banner != nil || notifications.contains { $0.isInFlight } || isPlayingImage }

    /// The image drawn in the open detail view, when there is one.
    var detailImage: RenderedImage? {
        guard images != nil, let entry = detailEntry, let key = ImageLayout.playedKey(of: entry, state: self) else {
            return nil
        }
        return renderedImages[key]
    }

    /// Whether the detail view plays an animated image now.
    var isPlayingImage: Bool { detailImage?.isAnimated == true && !animation.isPaused }

    var isTooSmall: Bool {
        size.columns < Self.minimumSize.columns || size.rows < Self.minimumSize.rows
    }
}
