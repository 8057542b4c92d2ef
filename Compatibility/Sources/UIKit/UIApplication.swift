import Foundation

/// The app object, which an app extension cannot reach. https://developer.apple.com/documentation/uikit/uiapplication
///
/// iOS marks `UIApplication.shared` `NS_EXTENSION_UNAVAILABLE_IOS`: code in a Notification Service Extension that
/// uses it does not build, and so it does not build here either, with the compiler saying why. The members code reaches
/// through it (the badge, opening a URL, background tasks) are declared, so the error is the one that matters, not
/// a missing member. Code shared with the app guards them with a compile-time flag of its own, or leaves the work to
/// the app through an App Group.
open class UIApplication: NSObject {
    /// Not in an app extension. https://developer.apple.com/documentation/uikit/uiapplication/shared
    @available(
        *, unavailable,
        message:
            "not available in app extensions: iOS marks it NS_EXTENSION_UNAVAILABLE_IOS, so a Notification Service Extension cannot use it (set the badge with the content's badge, share state through an App Group)"
    )
    open class var shared: UIApplication { fatalError("UIApplication.shared is unavailable in app extensions") }

    /// https://developer.apple.com/documentation/uikit/uiapplication/applicationiconbadgenumber
    open var applicationIconBadgeNumber = 0

    /// https://developer.apple.com/documentation/uikit/uiapplication/applicationstate
    open var applicationState: State { .background }

    /// https://developer.apple.com/documentation/uikit/uiapplication/open(_:options:completionhandler:)
    open func open(
        _ url: URL, options: [OpenExternalURLOptionsKey: Any] = [:],
        completionHandler completion: (@MainActor @Sendable (Bool) -> Void)? = nil
    ) {}

    /// https://developer.apple.com/documentation/uikit/uiapplication/canopenurl(_:)
    open func canOpenURL(_ url: URL) -> Bool { false }

    /// https://developer.apple.com/documentation/uikit/uiapplication/registerforremotenotifications()
    open func registerForRemoteNotifications() {}

    /// https://developer.apple.com/documentation/uikit/uiapplication/beginbackgroundtask(expirationhandler:)
    open func beginBackgroundTask(expirationHandler handler: (@MainActor @Sendable () -> Void)? = nil)
        -> UIBackgroundTaskIdentifier
    { .invalid }

    /// https://developer.apple.com/documentation/uikit/uiapplication/endbackgroundtask(_:)
    open func endBackgroundTask(_ identifier: UIBackgroundTaskIdentifier) {}

    /// https://developer.apple.com/documentation/uikit/uiapplication/state
    public enum State: Int, Sendable {
        case active, inactive, background
    }

    /// https://developer.apple.com/documentation/uikit/uiapplication/openexternalurloptionskey
    public struct OpenExternalURLOptionsKey: RawRepresentable, Hashable, Sendable {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let universalLinksOnly = OpenExternalURLOptionsKey(
            rawValue: "UIApplicationOpenURLOptionUniversalLinksOnly")
    }
}

/// A background task's identifier. https://developer.apple.com/documentation/uikit/uibackgroundtaskidentifier
public struct UIBackgroundTaskIdentifier: RawRepresentable, Hashable, Sendable {
    public var rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// https://developer.apple.com/documentation/uikit/uibackgroundtaskidentifier/invalid
    public static let invalid = UIBackgroundTaskIdentifier(rawValue: 0)
}
