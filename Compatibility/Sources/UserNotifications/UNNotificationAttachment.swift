import RichPushHostProtocol
import RichPushRules

/// The options an attachment takes, as iOS names them.
public let UNNotificationAttachmentOptionsTypeHintKey = "UNNotificationAttachmentOptionsTypeHintKey"
public let UNNotificationAttachmentOptionsThumbnailHiddenKey = "UNNotificationAttachmentOptionsThumbnailHiddenKey"
public let UNNotificationAttachmentOptionsThumbnailClippingRectKey =
    "UNNotificationAttachmentOptionsThumbnailClippingRectKey"
public let UNNotificationAttachmentOptionsThumbnailTimeKey = "UNNotificationAttachmentOptionsThumbnailTimeKey"

/// A file attached to a notification, checked as iOS checks it when it is created: a readable file URL, a type iOS
/// attaches (from the type hint, else the file's extension), within that type's size cap. The file is then *moved*
/// into the system's attachment store, so it is gone from where the extension wrote it.
open class UNNotificationAttachment: NSObject, @unchecked Sendable {
    public let identifier: String
    /// Where the file is now: in the system's store.
    public let url: URL
    /// The file's type identifier (`public.jpeg`).
    public let type: String
    /// The options it was made with that change how it is shown, for richpush's host.
    package let _options: HostAttachmentOptions

    /// Where created attachments are moved: `RICHPUSH_ATTACHMENT_STORE` (set by richpush for each notification),
    /// else a folder of its own in the temporary directory.
    static var storeDirectory: URL {
        if let path = ProcessInfo.processInfo.environment[HostProtocol.Environment.attachmentStore], !path.isEmpty {
            return URL(fileURLWithPath: path, isDirectory: true)
        }
        return FileManager.default.temporaryDirectory.appendingPathComponent(
            "richpush-attachments-\(getpid())", isDirectory: true)
    }

    public init(identifier: String, url: URL, options: [AnyHashable: Any]? = nil) throws {
        do {
            (self.url, self.type) = try Self.store(url, options: options)
        } catch {
            RichPushHostChannel.send(
                .attachmentFailed(
                    id: RichPushHostChannel.currentRequest, identifier: identifier, url: url.absoluteString,
                    error: "\(error)"))
            throw error
        }
        self.identifier = identifier
        self._options = Self.plain(options)
        super.init()
    }

    /// The options as the host protocol carries them. iOS takes the clipping rectangle as a `CGRect`'s dictionary
    /// (`CGRectCreateDictionaryRepresentation`: `X`, `Y`, `Width`, `Height`) and the thumbnail time as a `CMTime`'s
    /// (`CMTimeCopyAsDictionary`: `value`, `timescale`) or a number; a value of another shape is left out, as iOS
    /// ignores it.
    /// https://developer.apple.com/documentation/usernotifications/unnotificationattachmentoptionsthumbnailclippingrectkey
    static func plain(_ options: [AnyHashable: Any]?) -> HostAttachmentOptions {
        guard let options else { return HostAttachmentOptions() }
        func number(_ value: Any?) -> Double? {
            switch value {
            case let value as Double: value
            case let value as Float: Double(value)
            case let value as Int: Double(value)
            case let value as CGFloat: Double(value)
            case let value as NSNumber: value.doubleValue
            default: nil
            }
        }
        var plain = HostAttachmentOptions()
        plain.typeHint = options[UNNotificationAttachmentOptionsTypeHintKey] as? String
        plain.thumbnailHidden =
            (options[UNNotificationAttachmentOptionsThumbnailHiddenKey] as? Bool)
            ?? (options[UNNotificationAttachmentOptionsThumbnailHiddenKey] as? NSNumber)?.boolValue
        switch options[UNNotificationAttachmentOptionsThumbnailClippingRectKey] {
        case let rect as CGRect:
            plain.thumbnailClippingRect = [rect.origin.x, rect.origin.y, rect.size.width, rect.size.height].map {
                Double($0)
            }
        case let dictionary as [AnyHashable: Any]:
            let parts = ["X", "Y", "Width", "Height"].compactMap { number(dictionary[$0]) }
            if parts.count == 4 { plain.thumbnailClippingRect = parts }
        default:
            break
        }
        switch options[UNNotificationAttachmentOptionsThumbnailTimeKey] {
        case let dictionary as [AnyHashable: Any]:
            if let value = number(dictionary["value"]), let scale = number(dictionary["timescale"]), scale > 0 {
                plain.thumbnailTime = value / scale
            }
        case let value:
            plain.thumbnailTime = number(value)
        }
        return plain
    }

    /// iOS's checks, then the move into the store: where the file is now, and its type identifier.
    private static func store(_ url: URL, options: [AnyHashable: Any]?) throws -> (URL, String) {
        guard url.isFileURL else {
            throw UNError(.attachmentInvalidURL, "\(url.absoluteString) is not a file URL")
        }
        let path = url.path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
            FileManager.default.isReadableFile(atPath: path)
        else {
            throw UNError(.attachmentInvalidURL, "no readable file at \(path)")
        }
        let hint = options?[UNNotificationAttachmentOptionsTypeHintKey] as? String
        guard let kind = TypeDeclaration.attachmentType(hint: hint, fileExtension: url.pathExtension),
            let category = kind.attachment
        else {
            let named = hint.map { "type hint \($0)" } ?? "file extension \"\(url.pathExtension)\""
            throw UNError(.attachmentUnrecognizedType, "the \(named) is not a type iOS attaches")
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0
        guard size > 0 else {
            throw UNError(.attachmentInvalidFileSize, "an empty file; a \(category.rawValue) attachment needs bytes")
        }
        if let problem = category.sizeProblem(bytes: size) {
            throw UNError(.attachmentInvalidFileSize, problem)
        }
        let store = storeDirectory
        let destination = store.appendingPathComponent(UUID().uuidString)
            .appendingPathExtension(url.pathExtension.isEmpty ? kind.preferredExtension ?? "" : url.pathExtension)
        do {
            try FileManager.default.createDirectory(at: store, withIntermediateDirectories: true)
            try FileManager.default.moveItem(at: url, to: destination)
        } catch {
            throw UNError(.attachmentMoveIntoDataStoreFailed, "cannot move \(path) into the attachment store: \(error)")
        }
        return (destination, kind.identifier)
    }
}

/// An error of the UserNotifications framework, with iOS's domain and codes.
public struct UNError: Error, CustomNSError, Hashable, Sendable, CustomStringConvertible {
    public enum Code: Int, Sendable {
        case notificationsNotAllowed = 1
        case attachmentInvalidURL = 100
        case attachmentUnrecognizedType = 101
        case attachmentInvalidFileSize = 102
        case attachmentNotInDataStore = 103
        case attachmentMoveIntoDataStoreFailed = 104
        case attachmentCorrupt = 105
        case notificationInvalidNoDate = 1400
        case notificationInvalidNoContent = 1401
        case contentProvidingObjectNotAllowed = 1500
        case contentProvidingInvalid = 1501
        /// `setBadgeCount(_:withCompletionHandler:)` with a count below 0 (UNErrorCodeBadgeInputInvalid, iOS 16).
        case badgeInputInvalid = 1600
    }

    public let code: Code
    /// What was wrong, as richpush reports it.
    public let reason: String

    public init(_ code: Code, _ reason: String = "") {
        self.code = code
        self.reason = reason
    }

    public static var errorDomain: String { "UNErrorDomain" }
    public var errorCode: Int { code.rawValue }
    public var errorUserInfo: [String: Any] { [NSLocalizedDescriptionKey: description] }
    public var description: String { "UNError.\(code)" + (reason.isEmpty ? "" : ": \(reason)") }

    public static var notificationsNotAllowed: Code { .notificationsNotAllowed }
    public static var attachmentInvalidURL: Code { .attachmentInvalidURL }
    public static var attachmentUnrecognizedType: Code { .attachmentUnrecognizedType }
    public static var attachmentInvalidFileSize: Code { .attachmentInvalidFileSize }
    public static var attachmentNotInDataStore: Code { .attachmentNotInDataStore }
    public static var attachmentMoveIntoDataStoreFailed: Code { .attachmentMoveIntoDataStoreFailed }
    public static var attachmentCorrupt: Code { .attachmentCorrupt }
    public static var badgeInputInvalid: Code { .badgeInputInvalid }
}

/// `catch UNError.attachmentInvalidURL`, as on iOS.
public func ~= (code: UNError.Code, error: any Error) -> Bool { (error as? UNError)?.code == code }

extension FileManager {
    /// The App Group's shared container: a folder of the notification's own (`RICHPUSH_APP_GROUP_CONTAINER`, set
    /// by richpush), else one in the temporary directory.
    public func containerURL(forSecurityApplicationGroupIdentifier groupIdentifier: String) -> URL? {
        let base =
            ProcessInfo.processInfo.environment[HostProtocol.Environment.appGroupContainer].map {
                URL(fileURLWithPath: $0, isDirectory: true)
            } ?? temporaryDirectory.appendingPathComponent("richpush-app-groups-\(getpid())", isDirectory: true)
        let folder = base.appendingPathComponent(groupIdentifier, isDirectory: true)
        try? createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }
}
