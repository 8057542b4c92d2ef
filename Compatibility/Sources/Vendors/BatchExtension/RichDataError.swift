import Foundation

/// Why ``RichNotificationHelper`` attached nothing (RichNotificationHelper.swift at 9c3730cf), in Batch's words and
/// error domain.
public enum RichDataError: Error, CustomNSError {
    case noRichDataFound
    case invalidRichDataPayload
    case downloadError(underlyingError: any Error)
    case unknownDownloadError
    case unknownError

    public var localizedDescription: String {
        switch self {
        case .noRichDataFound: "No additional data to append found"
        case .invalidRichDataPayload: "The rich data payload was invalid"
        case .downloadError: "Download error. See the underlying error for more info."
        case .unknownDownloadError: "Unknown download error"
        case .unknownError: "Unknown error"
        }
    }

    public static var errorDomain: String { "com.batch.extension.richnotificationhelper" }

    public var errorUserInfo: [String: Any] {
        var info: [String: Any] = [NSLocalizedDescriptionKey: localizedDescription]
        if case .downloadError(let underlying) = self { info[NSUnderlyingErrorKey] = underlying as NSError }
        return info
    }
}
