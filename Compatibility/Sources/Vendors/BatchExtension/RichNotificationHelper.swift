import Foundation
import RichPushRules
import RichPushVendorSupport
import UserNotifications

/// Batch's rich notification helper (Sources/Swift/Rich Notifications/RichNotificationHelper.swift at 9c3730cf, the
/// same from 3.0 to 4.0.0; `BAERichNotificationHelper` is its Objective-C name only). "Instanciate this once per
/// UNNotificationServiceExtension". What it does comes from the `batch` SDK profile's rules (`RichPushRules.Batch`),
/// which `--sdk batch` reads too:
///
/// - the image is `com.batch.at.u` with its type `com.batch.at.t`; without either, `noRichDataFound`;
/// - URLSession with a 20 s resource timeout, no status, Content-Type or size check; the download's own file is
///   attached (identifier `batch_rich_attachment` on iOS) with the type hint `t`, after any attachment the content
///   had;
/// - any error is printed ("Batch - An error occurred while downloading the rich push content: …") and the content
///   handler gets the original content;
/// - ``serviceExtensionTimeWillExpire()`` does nothing.
public class RichNotificationHelper: NSObject, @unchecked Sendable {
    // @unchecked: no stored state; the static setting is Batch's and read once per download.

    /// Whether to download in iOS's Low Data Mode (false by default, so no image then; richpush does not emulate Low
    /// Data Mode).
    nonisolated(unsafe) public static var allowInLowDataMode = false

    public override init() {
        super.init()
    }

    /// Downloads and appends the rich content of `content`, and hands a mutable copy with the attachment, or the
    /// content itself and the error, to `completionHandler`. The download may end after
    /// `serviceExtensionTimeWillExpire`.
    public func appendRichData(
        toContent content: UNNotificationContent,
        completionHandler: @escaping ((UNNotificationContent?, (any Error)?) -> Void)
    ) {
        let rules = RichPushRules.Batch()
        let box = UncheckedCompletion(content: content, completion: completionHandler)
        guard let image = rules.imageRequests(in: UserInfoNode(content.userInfo)).first else {
            return completionHandler(content, RichDataError.noRichDataFound)
        }
        VendorAttachmentLoader(rules: rules, userInfo: content.userInfo).loadOne(image) { outcome in
            switch outcome {
            case .attached(let one):
                guard let mutable = box.content.mutableCopy() as? UNMutableNotificationContent else {
                    return box.completion(box.content, RichDataError.unknownError)
                }
                mutable.attachments.append(one.attachment)
                box.completion(mutable, nil)
            case .failed(let failure):
                VendorChannel.imageFailed(rules, failure)
                let underlying = NSError(
                    domain: NSURLErrorDomain, code: NSURLErrorUnknown,
                    userInfo: [NSLocalizedDescriptionKey: failure.detail])
                let error: RichDataError =
                    failure.reason == .invalidURL
                    ? .invalidRichDataPayload : .downloadError(underlyingError: underlying)
                box.completion(box.content, error)
            }
        }
    }

    /// Batch's replacement for the extension's own `didReceive`: the rich content, then the handler.
    public func didReceive(
        _ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
    ) {
        appendRichData(toContent: request.content) { content, error in
            if let error { print("Batch - An error occurred while downloading the rich push content: \(error)") }
            contentHandler(content ?? request.content)
        }
    }

    /// Nothing: Batch's comment says "We might use this in the future".
    public func serviceExtensionTimeWillExpire() {}

    /// The content and completion, handed to the download's thread once.
    private struct UncheckedCompletion: @unchecked Sendable {
        let content: UNNotificationContent
        let completion: (UNNotificationContent?, (any Error)?) -> Void
    }
}
