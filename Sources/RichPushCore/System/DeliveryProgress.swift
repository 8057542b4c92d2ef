/// Live news of a notification while it is being delivered, for front ends that show progress.
public enum DeliveryProgress: Sendable, Equatable {
    /// A step was added to the timeline.
    case event(TimelineEvent)
    /// Image bytes received so far, and the Content-Length when the server gave one.
    case bytesReceived(Int, expected: Int?)
}
