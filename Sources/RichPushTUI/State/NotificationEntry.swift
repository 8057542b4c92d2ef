import RichPushCore

/// One row of the notification center: a payload that was sent, while it is delivered and after.
struct NotificationEntry: Equatable, Sendable, Identifiable {
    let id: Int
    /// The payload file, as the library shows it.
    var file: String
    /// The app state the payload was sent in.
    var appState: AppState
    /// Seconds since the UI started, when the payload was sent.
    var sentAt: Double
    /// For a push that arrived over the network, what its request said (topic, push type, …).
    var request: [PushSource.Detail] = []
    /// The alert text decoded when sending, shown while the extension still runs.
    var preview: NotificationContent?
    /// The limits this notification is delivered under (its payload's own settings applied), as the
    /// pipeline reported them when the delivery started, then as the result states them.
    var limits: EffectiveLimits?
    /// Timeline steps received so far.
    var events: [TimelineEvent] = []
    var bytesReceived = 0
    var bytesExpected: Int?
    /// The outcome; nil while the notification is in flight.
    var result: DeliveryResult?
    /// Why the payload never reached the pipeline (e.g. the file could not be read).
    var failure: String?
    /// Why the push endpoint refused the request, as the sender was told ("BadTopic: …").
    var endpointRejection: String?

    /// Whether it came with a delivered Scheduled Summary (`D`), after waiting for it.
    var deliveredInSummary = false

    var isInFlight: Bool { result == nil && failure == nil }

    /// How the phone's state let it reach the person (immediately, quietly, in the summary, held by Focus, or as
    /// the foreground app's options say); nil before it arrives, and for a notification the phone never got.
    var delivery: PresentedDelivery? { result?.presentation?.delivery }

    /// Whether it waits for the next Scheduled Summary.
    var isWaitingForSummary: Bool { delivery?.kind == .scheduledSummary && !deliveredInSummary }

    /// The text the row shows: the presented content once known, else the decoded preview.
    var content: NotificationContent {
        result?.content ?? preview ?? NotificationContent()
    }

    /// The stack it is drawn in on a phone whose Notification Grouping is `grouping` (the phone regroups what it
    /// shows when the setting changes): by the thread the presentation names, else the payload's thread-id.
    func stack(grouping: DeviceState.Grouping) -> NotificationGroup? {
        let thread: String
        if case .thread(let shown)? = result?.presentation?.group {
            thread = shown
        } else {
            thread = result?.presentation?.group == .app ? "" : result?.threadID ?? ""
        }
        return GroupingRules.drawnStack(
            GroupingRules.group(threadIdentifier: thread, grouping: grouping), grouping: grouping)
    }

    /// The limits its progress and explanations quote: the result's, else the ones its delivery reported
    /// when it started, else (for a deliverer that reports none) the configured ones.
    func limits(or configured: EffectiveLimits) -> EffectiveLimits {
        result?.limits ?? limits ?? configured
    }

    /// When a timeline step first happened, in seconds since the UI started.
    func time(of kind: TimelineEvent.Kind) -> Double? {
        events.first { $0.kind == kind }.map { sentAt + $0.at }
    }

    func has(_ kind: TimelineEvent.Kind) -> Bool {
        events.contains { $0.kind == kind }
    }
}
