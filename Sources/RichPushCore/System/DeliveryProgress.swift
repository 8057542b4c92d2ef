/// Live news of a notification while it is being delivered, for front ends that show progress.
public enum DeliveryProgress: Sendable, Equatable {
    /// Sent first: the limits this notification is delivered under, per-payload settings applied.
    case limits(EffectiveLimits)
    /// The payload was decoded: the alert text the notification will show, known before the extension ends.
    case decoded(NotificationContent)
    /// A step was added to the timeline.
    case event(TimelineEvent)
    /// Image bytes received so far, and the Content-Length when the server gave one.
    case bytesReceived(Int, expected: Int?)
}
