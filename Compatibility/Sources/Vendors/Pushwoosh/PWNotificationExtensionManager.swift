@_exported import PushwooshFramework
@_spi(RichPushPushwoosh) import PushwooshFramework
import Foundation
import UserNotifications

/// `import Pushwoosh`: the module name up to 6.7.x (`framework module Pushwoosh`, Framework/Pushwoosh.framework/Modules/
/// module.modulemap @ 6.0.0), which became `PushwooshFramework` in 6.7.2 (fb7a8364). Everything is
/// `PushwooshFramework`'s but what differs in that generation:
///
/// - `PWNotificationExtensionManager` is not deprecated (it was the only entry point);
/// - `PushwooshNotificationServiceExtension` does not exist (7.1.0 added it).
///
/// The image code is the same as 7.1.3's (PWNotificationExtensionManager.m @ 7.0.46 9fa75fca: `attachment` of a
/// `pw_msg` message, the shared session, UUID + `suggestedFilename`), so it runs the same processor.
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
        let processor = PWNotificationServiceProcessor(
            request: request, appGroupsName: nil, contentHandler: contentHandler)
        if Thread.isMainThread {
            processor.start()
        } else {
            DispatchQueue.main.async { processor.start() }
        }
    }

    /// The App Group variant, whose first version is not confirmed (after 6.0.0). In 7.0.x it only changed the badge
    /// (or, with `PW_APP_GROUPS_NAME` set, handed the content back at once): no image, no delivery event; that
    /// version's behaviour is assumed here.
    open func handle(
        _ request: UNNotificationRequest, withAppGroups appGroupsName: String,
        contentHandler: @escaping (UNNotificationContent) -> Void
    ) {
        contentHandler(request.content.mutableCopy() as? UNNotificationContent ?? request.content)
    }
}
