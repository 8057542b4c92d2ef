import Foundation
import UserNotifications

/// Pushwoosh 7.1.0+'s base class for a Notification Service Extension (PushwooshNotificationServiceExtension.h/.m @
/// 88bf6db5): `class NotificationService: PushwooshNotificationServiceExtension {}` is the whole extension.
///
/// `didReceive` runs ``pushwooshPrepare(for:completion:)`` and then Pushwoosh's processing (``PWNotificationServiceProcessor``:
/// the `attachment` image of a `pw_msg` message, its delivery event recorded as "would send"); the content handler
/// is called on the main queue when that is done. `serviceExtensionTimeWillExpire()` hands every notification still
/// in progress over as it is then (`expireWithFallback`), once. A subclass that overrides `didReceive` calls `super`
/// with its own handler, as the header shows.
open class PushwooshNotificationServiceExtension: UNNotificationServiceExtension {
    /// The notifications in progress (iOS's instance gets one, but `didReceive` may be called again).
    private var processors: [PWNotificationServiceProcessor] = []

    open override func didReceive(
        _ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
    ) {
        let processor = PWNotificationServiceProcessor(
            request: request, appGroupsName: pushwooshAppGroupsName(), contentHandler: contentHandler)
        processors.append(processor)
        pushwooshPrepare(for: request) { processor.start() }
    }

    open override func serviceExtensionTimeWillExpire() {
        for processor in processors { processor.expire() }
    }

    /// Runs before the processing, which starts when `completion` is called (on the main queue); the default calls
    /// it at once.
    open func pushwooshPrepare(for request: UNNotificationRequest, completion: @escaping () -> Void) {
        completion()
    }

    /// The App Group for the badge count; nil: Info.plist's `PW_APP_GROUPS_NAME`. The badge is not emulated.
    open func pushwooshAppGroupsName() -> String? { nil }
}
