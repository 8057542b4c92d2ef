@_exported import Foundation
@_exported import UserNotifications
import RichPushRules
import RichPushVendorSupport

/// CleverTap's `CTNotificationServiceExtension` (CTNotificationService 0.1.5 – 0.1.7), for an extension that names it
/// as its principal class or subclasses it, overriding `didReceive` and calling `super` (CleverTap's README and
/// samples). What it does comes from the `clevertap` SDK profile's rules (`RichPushRules.CleverTap`, read in
/// CTNotificationServiceExtension.m at f302ca47), which `--sdk clevertap` reads too:
///
/// - the image is `userInfo[mediaUrlKey ?? "ct_mediaUrl"]` with its type `userInfo[mediaTypeKey ?? "ct_mediaType"]`;
///   without either the content handler gets the content at once (logging which key is nil, as CleverTap's debug
///   builds do);
/// - URLSession with no timeout of its own (60 s), no status, Content-Type or size check; `image` names the file
///   `.jpg`, `video` `.mp4`, `audio` `.mp3`, any other type the MIME type's extension (`image/jpeg`, `image/png`,
///   `image/gif`) or a bare dot;
/// - the attachment (identifier `""`) replaces any the content had;
/// - ``serviceExtensionTimeWillExpire()`` hands over the best attempt without stopping the download, whose end calls
///   the content handler again, as CleverTap's does.
///
/// The class sends nothing: the "Notification Viewed" event is `CleverTap.recordNotificationViewedEvent(withData:)`'s,
/// in `CleverTapSDK`.
open class CTNotificationServiceExtension: UNNotificationServiceExtension {
    /// The `userInfo` key of the media URL, when not `ct_mediaUrl`: set it before `super.didReceive`.
    open var mediaUrlKey: String?
    /// The `userInfo` key of the media type, when not `ct_mediaType`: set it before `super.didReceive`.
    open var mediaTypeKey: String?

    /// CleverTap keeps the handler and the best attempt in a private class extension, so a subclass may declare its
    /// own `contentHandler` and `bestAttemptContent`; these are private here for the same reason.
    private let delivery = ContentDelivery()

    public override init() {
        super.init()
    }

    open override func didReceive(
        _ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
    ) {
        let best =
            request.content.mutableCopy() as? UNMutableNotificationContent ?? UNMutableNotificationContent()
        delivery.start(best, handler: contentHandler)
        let rules = CleverTap(mediaUrlKey: mediaUrlKey, mediaTypeKey: mediaTypeKey)
        let userInfo = UserInfoNode(request.content.userInfo)
        guard let image = rules.imageRequests(in: userInfo).first else {
            for key in [mediaUrlKey ?? "ct_mediaUrl", mediaTypeKey ?? "ct_mediaType"]
            where userInfo.member(key)?.string == nil {
                NSLog("unable to add attachment: %@ is nil", key)
            }
            delivery.deliver()
            return
        }
        VendorAttachmentLoader(rules: rules, userInfo: request.content.userInfo).loadOne(image) { [delivery] outcome in
            switch outcome {
            case .attached(let one):
                delivery.attach(one.attachment)
            case .failed(let failure):
                VendorChannel.imageFailed(rules, failure)
                NSLog("unable to add attachment: %@", failure.detail)
            }
            delivery.deliver()
        }
    }

    /// The best attempt, now; the download goes on.
    open override func serviceExtensionTimeWillExpire() {
        delivery.deliver()
    }
}
