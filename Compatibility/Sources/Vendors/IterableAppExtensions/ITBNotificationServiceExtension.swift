@_exported import Foundation
@_exported import UserNotifications
import RichPushRules
import RichPushVendorSupport

/// Iterable's `ITBNotificationServiceExtension` (notification-extension/ITBNotificationServiceExtension.swift at
/// 33d88c95), for an extension that subclasses it (Iterable's samples: an empty subclass), overrides `didReceive` and
/// calls `super`, or keeps one and forwards to it. The image comes from the `iterable` SDK profile's rules
/// (`RichPushRules.Iterable`), which `--sdk iterable` reads too; the rest is Iterable's order of work:
///
/// - with ``itblNotificationDelegate`` set and no `itbl` key, the delegate gets the push and nothing else happens;
/// - the category: the push's own, else `itbl.messageId` (Iterable registers a category of that name with the
///   buttons of `itbl.actionButtons`; richpush has no notification center to register it in), else none; the step
///   counts as done 0.01 s later, on the main queue;
/// - the image `itbl.attachment-url` through URLSession (60 s, no status, Content-Type or size check), named
///   `UUID + suggestedFilename` and appended to the content's attachments. A download that succeeds calls the content
///   handler at once, category step done or not; without an image, or when it fails, the handler is called when both
///   steps are done;
/// - ``serviceExtensionTimeWillExpire()`` cancels the download and hands over the best attempt; the cancelled
///   download then counts as done, which calls the handler a second time, as Iterable's does.
///
/// Iterable's extension sends nothing and keeps nothing besides the image.
open class ITBNotificationServiceExtension: UNNotificationServiceExtension {
    /// The SDK that handles pushes without `itbl` (set it before `didReceive`, e.g. in the subclass's `init`).
    nonisolated(unsafe) public static var itblNotificationDelegate: (any ITBNotificationServiceExtensionDelegate)?

    /// Internal in Iterable's module, so a subclass may declare its own `contentHandler` and `bestAttemptContent`.
    private let steps = IterableSteps()

    public override init() {
        super.init()
    }

    open override func didReceive(
        _ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
    ) {
        let best = request.content.mutableCopy() as? UNMutableNotificationContent ?? UNMutableNotificationContent()
        steps.start(best, handler: contentHandler)
        if let delegate = Self.itblNotificationDelegate {
            let isIterable = request.content.userInfo.keys.contains { key in
                guard let name = key.base as? String else {
                    print("Iterable SDK notification service extension: failed to cast JSON key to string")
                    return false
                }
                return name == "itbl"
            }
            if !isIterable {
                delegate.notificationServiceDidReceive(
                    request, bestAttemptContent: best, contentHandler: contentHandler)
                return
            }
        }
        resolveCategory(of: request.content, best: best)
        retrieveAttachment(from: request.content)
    }

    /// Iterable's `callContentHandler()`: the download is cancelled and the best attempt delivered.
    open override func serviceExtensionTimeWillExpire() {
        steps.expire()
    }

    /// `resolveCategory(from:)`: the push's category, else a category named after `itbl.messageId`, else "".
    private func resolveCategory(of content: UNNotificationContent, best: UNMutableNotificationContent) {
        let itbl = content.userInfo["itbl"] as? [AnyHashable: Any]
        if content.categoryIdentifier.isEmpty {
            best.categoryIdentifier = itbl?["messageId"] as? String ?? ""
        }
        DispatchQueue.main.asyncAfter(deadline: .now() + 0.01) { [steps] in steps.categoryDone() }
    }

    /// `retrieveAttachment(from:)`: one download, or the step done at once.
    private func retrieveAttachment(from content: UNNotificationContent) {
        let rules = RichPushRules.Iterable()
        guard let image = rules.imageRequests(in: UserInfoNode(content.userInfo)).first else {
            steps.attachmentDone()
            return
        }
        steps.downloadStarted()
        VendorAttachmentLoader(rules: rules, userInfo: content.userInfo).loadOne(image) { [steps] outcome in
            switch outcome {
            case .attached(let one):
                steps.attached(one.attachment)
            case .failed(let failure):
                VendorChannel.imageFailed(rules, failure)
                steps.downloadFailed()
            }
        }
    }
}
