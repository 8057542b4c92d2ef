import Foundation
import UserNotifications

/// Asks Braze to handle a notification (`brazeHandle(request:contentHandler:)`, DocC
/// `brazenotificationservice/brazehandle(request:contenthandler:).json` @ cef09df2), for an extension of the app's own
/// that serves other vendors too: `true` when the notification is Braze's (`userInfo["ab"]` is there; Braze's own
/// test is not documented), and Braze calls `contentHandler`; `false` otherwise, and the caller must.
public func brazeHandle(
    request: UNNotificationRequest, contentHandler: @escaping (UNNotificationContent) -> Void
) -> Bool {
    BrazePushSession.start(request: request, contentHandler: contentHandler) != nil
}
