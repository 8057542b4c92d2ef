@_exported import Foundation
@_exported import UserNotifications
import RichPushRules
import RichPushVendorSupport

/// Klaviyo's extension helpers (KlaviyoSwiftExtension; Sources/KlaviyoSwiftExtension/KlaviyoExtension.swift @ cddf6939,
/// 5.3.1), called from the Xcode template's `didReceive` and `serviceExtensionTimeWillExpire`.
///
/// Without a `rich-media` string the handler gets `bestAttemptContent` at once. Otherwise the media is fetched and
/// named by the shared rules (`RichPushRules.Klaviyo`, which `richpush --sdk klaviyo` reads too): the download's file
/// plus `.` and `rich-media-type`, else `fallbackMediaType`; then `bestAttemptContent.attachments = [attachment]` and
/// the handler, with or without it. The badge (`badge_config` with the `klaviyo_app_group` App Group) and the action
/// buttons (categories in `UNUserNotificationCenter`) are not emulated.
public enum KlaviyoExtensionSDK {
    private static let rules = RichPushRules.Klaviyo()

    public static func handleNotificationServiceDidReceivedRequest(
        request: UNNotificationRequest,
        bestAttemptContent: UNMutableNotificationContent,
        contentHandler: @escaping (UNNotificationContent) -> Void,
        fallbackMediaType: String = "jpg"
    ) {
        guard var media = rules.imageRequests(in: UserInfoNode(bestAttemptContent.userInfo)).first else {
            contentHandler(bestAttemptContent)
            return
        }
        media.type = media.type ?? fallbackMediaType
        let handed = HandedContent(content: bestAttemptContent, handler: contentHandler)
        VendorAttachmentLoader(rules: rules, userInfo: bestAttemptContent.userInfo).loadOne(media) { outcome in
            switch outcome {
            case .attached(let one):
                handed.content.attachments = [one.attachment]
            case .failed(let failure):
                VendorChannel.imageFailed(rules, failure)
                if failure.reason == .networkError || failure.reason == .timeout {
                    log("Error when downloading push media: \(failure.detail)")
                }
            }
            handed.handler(handed.content)
        }
    }

    /// Hands `bestAttemptContent` over as it is (without the media if the download is still running; its later
    /// completion calls the handler again, which iOS ignores).
    public static func handleNotificationServiceExtensionTimeWillExpireRequest(
        request: UNNotificationRequest,
        bestAttemptContent: UNMutableNotificationContent,
        contentHandler: @escaping (UNNotificationContent) -> Void
    ) {
        contentHandler(bestAttemptContent)
    }

    /// `Logger.richMedia.error(…)`, subsystem `com.klaviyo.klaviyo-swift-sdk.klaviyoSwiftExtension`: to standard error.
    private static func log(_ message: String) {
        FileHandle.standardError.write(Data("[KlaviyoSwiftExtension] \(message)\n".utf8))
    }

    /// The content and the handler, handed to the download's completion on another thread.
    private struct HandedContent: @unchecked Sendable {
        // @unchecked: the content is the extension's, changed by the download's completion only; the handler is
        // iOS's, called once there.
        let content: UNMutableNotificationContent
        let handler: (UNNotificationContent) -> Void
    }
}
