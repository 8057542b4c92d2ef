import Foundation
import UserNotifications

/// Pushwoosh's extension entry point before 7.1.0, deprecated since (PWNotificationExtensionManager.h @ 88bf6db5): the
/// Xcode template's class calls `PWNotificationExtensionManager.shared().handle(request, contentHandler:
/// contentHandler)`. Both overloads run the processing of ``PushwooshNotificationServiceExtension`` (7.1.0 made the
/// `withAppGroups:` one do so too; in 7.0.x it changed only the badge); there is no expiry hook: the template's own
/// `serviceExtensionTimeWillExpire` delivers its copy.
@available(*, deprecated, message: "Since 7.1.0: subclass PushwooshNotificationServiceExtension instead.")
open class PWNotificationExtensionManager: NSObject, @unchecked Sendable {
    // @unchecked: no state; each call has its own processor.
    private static let instance = PWNotificationExtensionManager()

    public required override init() {
        super.init()
    }

    /// The shared manager (`+sharedManager`).
    @discardableResult
    open class func shared() -> Self {
        (instance as? Self) ?? Self()
    }

    /// Processes `request` and calls `contentHandler` once, on the main queue.
    open func handle(_ request: UNNotificationRequest, contentHandler: @escaping (UNNotificationContent) -> Void) {
        start(request, appGroupsName: nil, contentHandler: contentHandler)
    }

    /// The same, with the App Group for the badge named here instead of Info.plist's `PW_APP_GROUPS_NAME`.
    open func handle(
        _ request: UNNotificationRequest, withAppGroups appGroupsName: String,
        contentHandler: @escaping (UNNotificationContent) -> Void
    ) {
        start(request, appGroupsName: appGroupsName, contentHandler: contentHandler)
    }

    private func start(
        _ request: UNNotificationRequest, appGroupsName: String?,
        contentHandler: @escaping (UNNotificationContent) -> Void
    ) {
        let processor = PWNotificationServiceProcessor(
            request: request, appGroupsName: appGroupsName, contentHandler: contentHandler)
        if Thread.isMainThread {
            processor.start()
        } else {
            DispatchQueue.main.async { processor.start() }
        }
    }
}
