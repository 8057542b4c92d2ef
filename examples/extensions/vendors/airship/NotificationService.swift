// An Airship extension in the shape Airship's guide gives: an empty subclass of `UANotificationServiceExtension`,
// which does everything, so the app writes no code at all. Under richpush that class follows the `airship` profile:
// every URL of `com.urbanairship.media_attachment` downloaded at once, none attached when one fails, the file named
// from the URL's last component (or typed from the MIME type or the first bytes), the payload's `content` text applied
// only when every image was attached, and the original content delivered on expiry.
import AirshipServiceExtension

class NotificationService: UANotificationServiceExtension {}
