import Foundation
import UserNotifications

/// WidgetKit's `WidgetCenter`, as far as a Notification Service Extension uses it: asking for the app's widgets to
/// be reloaded after it stored what the notification brought (https://developer.apple.com/documentation/widgetkit/widgetcenter).
/// No widget is drawn here: each reload request is a `frameworkNote` in the notification's timeline ("WidgetKit:
/// reloadAllTimelines()"), so a test can see that the extension asked; the app has no configured widgets.
public final class WidgetCenter: @unchecked Sendable {
    /// https://developer.apple.com/documentation/widgetkit/widgetcenter/shared
    public static let shared = WidgetCenter()

    /// Where the notes go: richpush's events channel. Tests listen here.
    let sink: @Sendable (String) -> Void

    init(sink: @escaping @Sendable (String) -> Void = WidgetCenter.sendNote) {
        self.sink = sink
    }

    static let sendNote: @Sendable (String) -> Void = { detail in
        RichPushHostChannel.send(.frameworkNote(framework: "WidgetKit", detail: detail))
    }

    /// Reloads the timelines of all the containing app's widgets: recorded in the timeline.
    /// https://developer.apple.com/documentation/widgetkit/widgetcenter/reloadalltimelines()
    public func reloadAllTimelines() {
        sink("reloadAllTimelines()")
    }

    /// Reloads the timelines of the widgets of `kind`: recorded in the timeline with the kind.
    /// https://developer.apple.com/documentation/widgetkit/widgetcenter/reloadtimelines(ofkind:)
    public func reloadTimelines(ofKind kind: String) {
        sink("reloadTimelines(ofKind: \"\(kind)\")")
    }

    /// The user's configured widgets: none here (richpush emulates no home screen), delivered on the main queue as
    /// WidgetKit does.
    /// https://developer.apple.com/documentation/widgetkit/widgetcenter/getcurrentconfigurations(_:)
    public func getCurrentConfigurations(_ completion: @escaping (Result<[WidgetInfo], any Error>) -> Void) {
        // Called once, on the main queue: not shared with any other thread.
        nonisolated(unsafe) let completion = completion
        DispatchQueue.main.async { completion(.success([])) }
    }

    /// The async form (iOS 17): https://developer.apple.com/documentation/widgetkit/widgetcenter/currentconfigurations()
    public func currentConfigurations() async throws -> [WidgetInfo] { [] }
}

/// A configured widget: https://developer.apple.com/documentation/widgetkit/widgetinfo (its `configuration`, an
/// `INIntent`, is left out: no widget is ever configured here).
public struct WidgetInfo: Sendable {
    /// https://developer.apple.com/documentation/widgetkit/widgetinfo/kind
    public let kind: String
    /// https://developer.apple.com/documentation/widgetkit/widgetinfo/family
    public let family: WidgetFamily
}

/// https://developer.apple.com/documentation/widgetkit/widgetfamily
public enum WidgetFamily: Sendable, Hashable {
    case systemSmall, systemMedium, systemLarge, systemExtraLarge
    case accessoryCircular, accessoryRectangular, accessoryInline
}
