@_exported import Foundation
@_exported import UserNotifications

/// Batch's drop-in extension class (BatchExtension 4.0.0; the SwiftPM variant
/// Sources/Swift/SwiftPM/BAENotificationServiceExtension.swift at 1f3f1965, the CocoaPods variant
/// Sources/ObjC/BAENotificationServiceExtension.m at the same commit): "set it as your base class without overriding
/// any methods". It hands every push to one ``RichNotificationHelper``, whose behaviour is the `batch` SDK profile's,
/// and does nothing when the time runs out: iOS shows the original content then. 4.0.0 sends nothing; 3.0.x's display
/// receipts are ``DisplayReceiptHelper``'s.
open class BAENotificationServiceExtension: UNNotificationServiceExtension {
    let richNotificationHelper = RichNotificationHelper()

    public override init() {
        super.init()
    }

    open override func didReceive(
        _ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
    ) {
        richNotificationHelper.didReceive(request, withContentHandler: contentHandler)
    }

    open override func serviceExtensionTimeWillExpire() {
        richNotificationHelper.serviceExtensionTimeWillExpire()
    }
}
