import Foundation
import UserNotifications

/// BatchExtension 3.0.x's display receipts (Sources/Swift/Display Receipt/DisplayReceiptHelper.swift and
/// Sources/Swift/AppInformationProvider.swift at tag 3.0.3; removed in 4.0.0), kept so a 3.0.x extension that calls it
/// builds. Batch sends a receipt only when the App Group's UserDefaults say the SDK is not opted out
/// (`batch_shared_optout` = false), a missing key counting as opted out; an extension under richpush has a new, empty
/// App Group, so ``didReceive(_:)`` says what 3.0.x says then and sends nothing. Nothing is ever sent.
public class DisplayReceiptHelper: NSObject, @unchecked Sendable {
    // @unchecked: no state.

    public override init() {
        super.init()
    }

    /// Caches and sends the receipt of `content` (without the opt-out check); richpush sends none, and says so.
    public func processDisplayReceipt(
        forContent content: UNNotificationContent,
        completionHandler: @escaping ((UNNotificationContent?, (any Error)?) -> Void)
    ) {
        guard let batch = content.userInfo["com.batch"] as? [AnyHashable: Any], batch["r"] != nil else {
            return completionHandler(content, DisplayReceiptHelperError.noReceiptDataFound)
        }
        print(
            "Batch - richpush does not send BatchExtension 3.0.x display receipts (POST https://drws.batch.com/i/1.0.0)"
        )
        completionHandler(content, nil)
    }

    /// The opt-out check, then ``processDisplayReceipt(forContent:completionHandler:)``.
    public func didReceive(_ request: UNNotificationRequest) {
        let group =
            (Bundle.main.object(forInfoDictionaryKey: "BATCH_APP_GROUP_ID") as? String).flatMap {
                $0.isEmpty ? nil : $0
            }
            ?? "group.\(Bundle.main.bundleIdentifier ?? "").batch"
        let defaults = UserDefaults(suiteName: group)
        if defaults?.object(forKey: "batch_shared_optout") == nil
            || defaults?.bool(forKey: "batch_shared_optout") == true
        {
            print("Batch - SDK is opt-out, skipping display receipts")
            return
        }
        processDisplayReceipt(forContent: request.content) { _, error in
            if let error { print("Batch - An error occurred while processing display receipts: \(error)") }
        }
    }

    public func serviceExtensionTimeWillExpire() {}
}

/// Why ``DisplayReceiptHelper`` sent nothing (3.0.x; domain `com.batch.extension.displayreceipthelper`).
public enum DisplayReceiptHelperError: Error, CustomNSError {
    case noReceiptDataFound
    case invalidReceiptDataPayload
    case readCacheError(underlyingError: any Error)
    case writeCacheError(underlyingError: any Error)
    case packError(underlyingError: any Error)
    case unpackError(underlyingError: any Error)
    case appGroupError
    case unknownError

    public static var errorDomain: String { "com.batch.extension.displayreceipthelper" }
}
