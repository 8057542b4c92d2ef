import Foundation
import UserNotifications

/// Whether a request is Airship's, as an extension that serves several vendors asks
/// (UANotificationServiceExtension.swift, newest stored version).
extension UNNotificationRequest {
    /// Media to attach, Airship's metadata, or Airship's push id (`_`).
    public var isAirship: Bool {
        containsAirshipMediaAttachments || content.userInfo["com.urbanairship.metadata"] != nil
            || content.userInfo["_"] != nil
    }

    /// `com.urbanairship.media_attachment` is there.
    public var containsAirshipMediaAttachments: Bool {
        content.userInfo["com.urbanairship.media_attachment"] != nil
    }
}
