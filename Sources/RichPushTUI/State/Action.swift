import RichPushCore

/// Everything that can happen to the notification-center screen: keys, time, and delivery news.
enum Action: Equatable, Sendable {
    // Keys
    case setAppState(AppState)
    case cycleAppState
    /// `L`: the phone locked, or unlocked.
    case toggleLocked
    /// `F`: Focus off, on (the app not allowed), on allowing the app, then off again.
    case cycleFocus
    /// `M`: Scheduled Summary on (with the app in it), or off.
    case toggleSummary
    /// `S`: the ring/silent switch on silent, or on ring.
    case toggleSilent
    /// `N`: Notification Grouping automatic, by app, off, then automatic again; the list regroups at once.
    case cycleGrouping
    /// `D`: deliver the Scheduled Summary: the notifications waiting for it, ordered by relevance.
    case deliverSummary
    /// `p`: the next SDK profile's service extension.
    case cycleSDK
    case switchFocus
    case moveSelection(Int)
    case moveToFirst
    case moveToLast
    /// Enter: send the selected payload, or open the selected notification.
    case activate
    /// Space: expand the selected stack of notifications (same thread-id), or collapse it; in the detail
    /// view, pause or play an animated image.
    case toggleStack
    /// Esc or Backspace: close the help overlay or the detail view.
    case back
    case toggleHelp
    case deleteSelected
    case clearAll
    case reloadLibrary
    /// Write the notifications on screen to an HTML report.
    case exportReport
    /// Write the selected notification as a payload file with its expectation (`w`), as `--record` does.
    case recordSelected
    case quit
    /// `v`: the detail view draws the next of the phone's views (lock screen, banner, expanded).
    case cycleView
    /// A digit: in the expanded view, tap the button of that number (`0` is the tenth).
    case tapAction(Int)
    /// A key as it was pressed: a text prompt that is open takes it, otherwise it stands for its binding's action.
    case key(Key)

    // Terminal and time
    case resized(TerminalSize)
    /// Seconds since the UI started.
    case tick(Double)

    // Effects coming back
    case libraryLoaded(Result<LibraryListing, LibraryError>)
    case deliveryProgress(id: Int, DeliveryProgress)
    case deliveryFinished(id: Int, DeliveryResult)
    case deliveryFailed(id: Int, String)
    /// The report was written (its path) or could not be (why).
    case exportFinished(Result<String, ExportError>)
    /// The selected notification was written (its path), or why not.
    case recordFinished(Result<String, ExportError>)
    /// A note from the push endpoint (its recorder), for the status line.
    case endpointNote(String)
    /// An attachment was drawn as cells (or could not be).
    case imageRendered(ImageKey, RenderedImage)

    // Pushes arriving over the network (the APNs and FCM endpoints), named by their push ID
    /// News of a push in flight; the first for a push ID puts a new notification on top, named by `source`.
    case networkPushProgress(pushID: String, source: PushSource, DeliveryProgress)
    /// A push came to its end: delivered (its notification finishes), or refused by the endpoint
    /// (`rejection` says why, e.g. "BadTopic: …") and listed as a rejected notification.
    case networkPushFinished(pushID: String, source: PushSource, DeliveryResult, rejection: String?)
}

/// Why the payload folder could not be listed, as the footer shows it.
struct LibraryError: Error, Equatable, Sendable, CustomStringConvertible {
    var message: String

    var description: String { message }
}

/// Why the notification center could not write its report, in a sentence for the status line.
public struct ExportError: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
