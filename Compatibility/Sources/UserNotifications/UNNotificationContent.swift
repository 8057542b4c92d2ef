@_exported import Foundation

#if canImport(FoundationNetworking)
    // Extension files that import only UserNotifications still see URLSession, as on iOS.
    @_exported import FoundationNetworking
#endif

/// How urgently iOS presents a notification (`interruption-level`).
public enum UNNotificationInterruptionLevel: UInt, Sendable {
    case passive, active, timeSensitive, critical
}

/// A notification's content, as iOS hands it to a service extension: read-only here, mutable in
/// ``UNMutableNotificationContent`` (`request.content.mutableCopy() as? UNMutableNotificationContent`).
open class UNNotificationContent: NSObject, NSCopying, NSMutableCopying, @unchecked Sendable {
    // @unchecked: iOS's class is not thread-safe either; an extension owns the content it was handed.
    struct Fields {
        var title = ""
        var subtitle = ""
        var body = ""
        var badge: NSNumber?
        var sound: UNNotificationSound?
        var userInfo: [AnyHashable: Any] = [:]
        var attachments: [UNNotificationAttachment] = []
        var threadIdentifier = ""
        var categoryIdentifier = ""
        var targetContentIdentifier: String?
        var interruptionLevel = UNNotificationInterruptionLevel.active
        var relevanceScore = 0.0
        var summaryArgument = ""
        var summaryArgumentCount = 0
        var launchImageName = ""
        var filterCriteria: String?
        /// Set by ``UNNotificationContent/updating(from:)`` from a communication intent.
        var communication: _UNCommunicationDetails?
    }

    var fields: Fields

    public override init() {
        fields = Fields()
        super.init()
    }

    init(fields: Fields) {
        self.fields = fields
        super.init()
    }

    open var title: String { fields.title }
    open var subtitle: String { fields.subtitle }
    open var body: String { fields.body }
    open var badge: NSNumber? { fields.badge }
    open var sound: UNNotificationSound? { fields.sound }
    open var userInfo: [AnyHashable: Any] { fields.userInfo }
    open var attachments: [UNNotificationAttachment] { fields.attachments }
    open var threadIdentifier: String { fields.threadIdentifier }
    open var categoryIdentifier: String { fields.categoryIdentifier }
    open var targetContentIdentifier: String? { fields.targetContentIdentifier }
    open var interruptionLevel: UNNotificationInterruptionLevel { fields.interruptionLevel }
    open var relevanceScore: Double { fields.relevanceScore }
    open var summaryArgument: String { fields.summaryArgument }
    open var summaryArgumentCount: Int { fields.summaryArgumentCount }
    open var launchImageName: String { fields.launchImageName }
    open var filterCriteria: String? { fields.filterCriteria }

    /// The sender and conversation ``updating(from:)`` took from a communication intent; nil until then. Not iOS API
    /// (hence the underscore): richpush's extension host reads it to show the sender and avatar.
    public var _communication: _UNCommunicationDetails? { fields.communication }

    /// A copy carrying the provider's context: for an `INSendMessageIntent`, the message's sender (name, handle,
    /// avatar), conversation and group, which make it a communication notification (iOS 15).
    /// https://developer.apple.com/documentation/usernotifications/unnotificationcontent/updating(from:)
    ///
    /// On iOS the system then shows the sender's name where the title goes (a group's name, with the sender's name,
    /// for a group conversation) and the avatar beside it; under richpush the returned content keeps every field as
    /// it was (title, body, attachments) and carries the sender and conversation besides, which richpush's result
    /// reports (`communication`) and its notification center and HTML report draw. The copy is of the receiver's
    /// class, so `try content.updating(from: intent) as! UNMutableNotificationContent` works on a mutable content,
    /// as extensions rely on. Only Apple's providers are accepted, as on iOS: another type conforming to
    /// ``UNNotificationContentProviding`` throws `UNError.contentProvidingObjectNotAllowed`.
    open func updating(from provider: any UNNotificationContentProviding) throws -> UNNotificationContent {
        guard let provider = provider as? any _UNCommunicationDetailsProviding else {
            throw UNError(
                .contentProvidingObjectNotAllowed,
                "\(type(of: provider)) is not an Apple SDK type: iOS accepts only its own providers (INSendMessageIntent)"
            )
        }
        var updated = fields
        updated.communication = try provider._communicationDetails()
        return self is UNMutableNotificationContent
            ? UNMutableNotificationContent(fields: updated) : UNNotificationContent(fields: updated)
    }

    open func copy(with zone: NSZone? = nil) -> Any { UNNotificationContent(fields: fields) }

    open func mutableCopy(with zone: NSZone? = nil) -> Any { UNMutableNotificationContent(fields: fields) }
}

/// An object of Apple's SDK that gives a notification context: `INSendMessageIntent` makes it a communication
/// notification. https://developer.apple.com/documentation/usernotifications/unnotificationcontentproviding
public protocol UNNotificationContentProviding: NSObjectProtocol {}

/// What a provider of Apple's SDK hands ``UNNotificationContent/updating(from:)``. Not iOS API (hence the underscore):
/// the link between the Intents module, which fills it, and UserNotifications.
public protocol _UNCommunicationDetailsProviding {
    /// The sender and conversation; throws a `UNError` when they do not make a communication notification.
    func _communicationDetails() throws -> _UNCommunicationDetails
}

/// A communication notification's sender and conversation, as ``UNNotificationContent/updating(from:)`` stores them.
/// Not iOS API (hence the underscore).
public struct _UNCommunicationDetails: Sendable, Equatable {
    /// The sender's display name (else their name components, else their handle); nil without a sender.
    public var senderName: String?
    /// The sender's handle (`INPersonHandle.value`).
    public var senderHandle: String?
    /// The avatar's image bytes: a group's image for a group conversation that has one, else the sender's.
    public var avatarImageData: Data?
    public var conversationIdentifier: String?
    /// The group conversation's name; nil for a one-to-one conversation (an empty name is none).
    public var groupName: String?

    public init(
        senderName: String?, senderHandle: String?, avatarImageData: Data?, conversationIdentifier: String?,
        groupName: String?
    ) {
        self.senderName = senderName
        self.senderHandle = senderHandle
        self.avatarImageData = avatarImageData
        self.conversationIdentifier = conversationIdentifier
        self.groupName = groupName
    }

    /// Writes the avatar's bytes into the notification's attachment store (`RICHPUSH_ATTACHMENT_STORE`, where
    /// attachments go), named from the format its bytes show (`.png`, `.jpg`, `.gif`, `.webp`, `.heic`); the file's
    /// path, or nil when there is no avatar, its bytes are no image iOS shows, or it cannot be written.
    public func _writeAvatar() -> String? {
        guard let data = avatarImageData, let fileExtension = Self.imageExtension(of: data) else { return nil }
        let store = UNNotificationAttachment.storeDirectory
        let file = store.appendingPathComponent("avatar-\(UUID().uuidString).\(fileExtension)")
        do {
            try FileManager.default.createDirectory(at: store, withIntermediateDirectories: true)
            try data.write(to: file)
        } catch {
            return nil
        }
        return file.path
    }

    /// The file extension of the image format `data` starts with; nil for anything else.
    static func imageExtension(of data: Data) -> String? {
        let head = [UInt8](data.prefix(12))
        func starts(_ bytes: [UInt8], at offset: Int = 0) -> Bool {
            head.count >= offset + bytes.count && Array(head[offset..<(offset + bytes.count)]) == bytes
        }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "png" }
        if starts([0xFF, 0xD8, 0xFF]) { return "jpg" }
        if starts(Array("GIF8".utf8)) { return "gif" }
        if starts(Array("RIFF".utf8)), starts(Array("WEBP".utf8), at: 8) { return "webp" }
        if starts(Array("ftyp".utf8), at: 4),
            ["heic", "heix", "mif1", "msf1"].contains(String(decoding: head[8..<12], as: UTF8.self))
        {
            return "heic"
        }
        return nil
    }
}

/// The content a service extension changes and hands back to its content handler.
open class UNMutableNotificationContent: UNNotificationContent, @unchecked Sendable {
    open override var title: String {
        get { fields.title }
        set { fields.title = newValue }
    }
    open override var subtitle: String {
        get { fields.subtitle }
        set { fields.subtitle = newValue }
    }
    open override var body: String {
        get { fields.body }
        set { fields.body = newValue }
    }
    open override var badge: NSNumber? {
        get { fields.badge }
        set { fields.badge = newValue }
    }
    open override var sound: UNNotificationSound? {
        get { fields.sound }
        set { fields.sound = newValue }
    }
    open override var userInfo: [AnyHashable: Any] {
        get { fields.userInfo }
        set { fields.userInfo = newValue }
    }
    open override var attachments: [UNNotificationAttachment] {
        get { fields.attachments }
        set { fields.attachments = newValue }
    }
    open override var threadIdentifier: String {
        get { fields.threadIdentifier }
        set { fields.threadIdentifier = newValue }
    }
    open override var categoryIdentifier: String {
        get { fields.categoryIdentifier }
        set { fields.categoryIdentifier = newValue }
    }
    open override var targetContentIdentifier: String? {
        get { fields.targetContentIdentifier }
        set { fields.targetContentIdentifier = newValue }
    }
    open override var interruptionLevel: UNNotificationInterruptionLevel {
        get { fields.interruptionLevel }
        set { fields.interruptionLevel = newValue }
    }
    open override var relevanceScore: Double {
        get { fields.relevanceScore }
        set { fields.relevanceScore = newValue }
    }
    open override var summaryArgument: String {
        get { fields.summaryArgument }
        set { fields.summaryArgument = newValue }
    }
    open override var summaryArgumentCount: Int {
        get { fields.summaryArgumentCount }
        set { fields.summaryArgumentCount = newValue }
    }
    open override var launchImageName: String {
        get { fields.launchImageName }
        set { fields.launchImageName = newValue }
    }
    open override var filterCriteria: String? {
        get { fields.filterCriteria }
        set { fields.filterCriteria = newValue }
    }
}

/// A notification's sound (`aps.sound`).
open class UNNotificationSound: NSObject, @unchecked Sendable {
    /// The sound file's name; nil for the default sound.
    public let name: String?
    public let isCritical: Bool
    public let criticalVolume: Float

    init(name: String?, isCritical: Bool = false, criticalVolume: Float = 1) {
        self.name = name
        self.isCritical = isCritical
        self.criticalVolume = criticalVolume
    }

    open class var `default`: UNNotificationSound { UNNotificationSound(name: nil) }
    open class var defaultCritical: UNNotificationSound { UNNotificationSound(name: nil, isCritical: true) }
    open class var defaultRingtone: UNNotificationSound { UNNotificationSound(name: "ringtone") }

    open class func defaultCriticalSound(withAudioVolume volume: Float) -> UNNotificationSound {
        UNNotificationSound(name: nil, isCritical: true, criticalVolume: volume)
    }

    public convenience init(named name: UNNotificationSoundName) {
        self.init(name: name.rawValue)
    }

    open class func criticalSoundNamed(_ name: UNNotificationSoundName) -> UNNotificationSound {
        UNNotificationSound(name: name.rawValue, isCritical: true)
    }
}

/// A sound file's name in the app bundle.
public struct UNNotificationSoundName: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { rawValue = value }
}

/// What the system delivered: its identifier and content (`trigger` is nil for a push).
open class UNNotificationRequest: NSObject, @unchecked Sendable {
    public let identifier: String
    public let content: UNNotificationContent

    public init(identifier: String, content: UNNotificationContent) {
        self.identifier = identifier
        self.content = content.copy() as? UNNotificationContent ?? content
    }

    open var trigger: AnyObject? { nil }
}

/// The principal class of a Notification Service Extension: iOS creates one per notification, calls
/// ``didReceive(_:withContentHandler:)``, and ``serviceExtensionTimeWillExpire()`` shortly before it ends it.
open class UNNotificationServiceExtension: NSObject {
    /// Not `required`, as on iOS: a subclass overrides it with `override init()`; the host makes the principal class
    /// by name, not through the metatype.
    public override init() { super.init() }

    /// The default shows the content as it came.
    open func didReceive(
        _ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
    ) {
        contentHandler(request.content)
    }

    open func serviceExtensionTimeWillExpire() {}
}
