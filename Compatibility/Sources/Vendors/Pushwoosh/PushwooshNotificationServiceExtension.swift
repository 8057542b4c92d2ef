import UserNotifications

/// Not in Pushwoosh up to 6.7.x (`import Pushwoosh`): the base class came in 7.1.0, with `import PushwooshFramework`.
@available(
    *, unavailable,
    message:
        "PushwooshNotificationServiceExtension came in Pushwoosh 7.1.0 (import PushwooshFramework); with import Pushwoosh, call PWNotificationExtensionManager.shared().handle(_:contentHandler:)"
)
open class PushwooshNotificationServiceExtension: UNNotificationServiceExtension {}
