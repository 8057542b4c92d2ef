@_exported import Foundation
import RichPushHostProtocol

#if canImport(FoundationNetworking)
    // Extension files that import only UserNotifications still see URLSession, as on iOS.
    @_exported import FoundationNetworking
#endif

/// How urgently iOS presents a notification (`interruption-level`).
public enum UNNotificationInterruptionLevel: UInt, Sendable {
    case passive, active, timeSensitive, critical

    /// The level a payload's `interruption-level` names; `active` for none or another word, as iOS reads it. The
    /// protocol's names are in this enum's order.
    init(named name: String?) {
        let index = name.flatMap(HostContent.InterruptionLevel.init(rawValue:)).flatMap {
            HostContent.InterruptionLevel.allCases.firstIndex(of: $0)
        }
        self = index.flatMap { Self(rawValue: UInt($0)) } ?? .active
    }

    /// The payload's word for it.
    var name: String { HostContent.InterruptionLevel.allCases[Int(rawValue)].rawValue }
}

/// A notification's content, as iOS hands it to a service extension: read-only here, mutable in
/// ``UNMutableNotificationContent`` (`request.content.mutableCopy() as? UNMutableNotificationContent`).
open class UNNotificationContent: NSObject, NSCopying, NSMutableCopying, @unchecked Sendable {
    // @unchecked: iOS's class is not thread-safe either; an extension owns the content it was handed.

    /// Everything a content holds. Its plain fields are the host protocol's ``HostContent``, the one description of a
    /// notification's content that richpush's result reports too: a property stored anywhere else would not reach
    /// richpush (a test holds this type to these members).
    struct Fields {
        /// Every plain field, as the host protocol carries it (its `attachments` and `communication` are filled only
        /// when the content is described for richpush: here they are objects, below).
        var plain = HostContent()
        var userInfo: [AnyHashable: Any] = [:]
        var attachments: [UNNotificationAttachment] = []
        /// Set by ``UNNotificationContent/updating(from:)`` from a communication intent.
        var communication: _UNCommunicationDetails?
        /// The request this content was made from: set by richpush's host on the content it builds, carried by every
        /// copy, hidden from the extension; nil for a content the extension made itself.
        var origin: String?
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

    open var title: String { fields.plain.title }
    open var subtitle: String { fields.plain.subtitle }
    open var body: String { fields.plain.body }
    open var badge: NSNumber? { fields.plain.badge.map { NSNumber(value: $0) } }
    open var sound: UNNotificationSound? { fields.plain.sound.map(UNNotificationSound.init(_:)) }
    open var userInfo: [AnyHashable: Any] { fields.userInfo }
    open var attachments: [UNNotificationAttachment] { fields.attachments }
    open var threadIdentifier: String { fields.plain.threadIdentifier }
    open var categoryIdentifier: String { fields.plain.categoryIdentifier }
    open var targetContentIdentifier: String? { fields.plain.targetContentIdentifier }
    open var interruptionLevel: UNNotificationInterruptionLevel {
        UNNotificationInterruptionLevel(named: fields.plain.interruptionLevel)
    }
    open var relevanceScore: Double { fields.plain.relevanceScore ?? 0 }
    open var summaryArgument: String { fields.plain.summaryArgument }
    open var summaryArgumentCount: Int { fields.plain.summaryArgumentCount }
    open var launchImageName: String { fields.plain.launchImageName }
    open var filterCriteria: String? { fields.plain.filterCriteria }

    /// A content as richpush's host builds it from the payload, marked as request `origin`'s.
    package convenience init(_ plain: HostContent, userInfo: [AnyHashable: Any], origin: String) {
        var fields = Fields(plain: plain, userInfo: userInfo)
        fields.plain.attachments = []
        fields.plain.communication = nil
        fields.origin = origin
        self.init(fields: fields)
    }

    /// The request this content was made from (``Fields/origin``).
    package var _origin: String? { fields.origin }

    /// The content as the host protocol carries it back to richpush: every plain field, the attachments with their
    /// options, and the sender of a communication notification (its avatar's bytes written into the notification's
    /// attachment store, where richpush reads attachments).
    package func _describe() -> HostContent {
        var described = fields.plain
        described.attachments = fields.attachments.map {
            HostAttachment(identifier: $0.identifier, file: $0.url.path, type: $0.type, options: $0._options)
        }
        described.communication = fields.communication.map {
            HostCommunication(
                senderName: $0.senderName ?? "", senderHandle: $0.senderHandle, avatarFile: $0._writeAvatar(),
                conversationIdentifier: $0.conversationIdentifier, groupName: $0.groupName)
        }
        return described
    }

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
        get { fields.plain.title }
        set { fields.plain.title = newValue }
    }
    open override var subtitle: String {
        get { fields.plain.subtitle }
        set { fields.plain.subtitle = newValue }
    }
    open override var body: String {
        get { fields.plain.body }
        set { fields.plain.body = newValue }
    }
    open override var badge: NSNumber? {
        get { super.badge }
        set { fields.plain.badge = newValue?.intValue }
    }
    open override var sound: UNNotificationSound? {
        get { super.sound }
        set { fields.plain.sound = newValue?.plain }
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
        get { fields.plain.threadIdentifier }
        set { fields.plain.threadIdentifier = newValue }
    }
    open override var categoryIdentifier: String {
        get { fields.plain.categoryIdentifier }
        set { fields.plain.categoryIdentifier = newValue }
    }
    open override var targetContentIdentifier: String? {
        get { fields.plain.targetContentIdentifier }
        set { fields.plain.targetContentIdentifier = newValue }
    }
    open override var interruptionLevel: UNNotificationInterruptionLevel {
        get { super.interruptionLevel }
        set { fields.plain.interruptionLevel = newValue.name }
    }
    open override var relevanceScore: Double {
        get { super.relevanceScore }
        set { fields.plain.relevanceScore = newValue }
    }
    open override var summaryArgument: String {
        get { fields.plain.summaryArgument }
        set { fields.plain.summaryArgument = newValue }
    }
    open override var summaryArgumentCount: Int {
        get { fields.plain.summaryArgumentCount }
        set { fields.plain.summaryArgumentCount = newValue }
    }
    open override var launchImageName: String {
        get { fields.plain.launchImageName }
        set { fields.plain.launchImageName = newValue }
    }
    open override var filterCriteria: String? {
        get { fields.plain.filterCriteria }
        set { fields.plain.filterCriteria = newValue }
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

    open class func criticalSoundNamed(_ name: UNNotificationSoundName, withAudioVolume volume: Float)
        -> UNNotificationSound
    {
        UNNotificationSound(name: name.rawValue, isCritical: true, criticalVolume: volume)
    }

    /// The sound as the host protocol carries it: a critical sound's volume, none for another.
    var plain: HostSound {
        HostSound(name: name, critical: isCritical, volume: isCritical ? Double(criticalVolume) : nil)
    }

    convenience init(_ plain: HostSound) {
        self.init(name: plain.name, isCritical: plain.critical, criticalVolume: plain.volume.map { Float($0) } ?? 1)
    }
}

/// A sound file's name in the app bundle.
public struct UNNotificationSoundName: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { rawValue = value }
}

/// What the system delivered: its identifier and content (`trigger` is nil for a push), or a local notification an
/// extension adds (`UNUserNotificationCenter.add(_:withCompletionHandler:)`).
/// https://developer.apple.com/documentation/usernotifications/unnotificationrequest
open class UNNotificationRequest: NSObject, @unchecked Sendable {
    public let identifier: String
    public let content: UNNotificationContent
    /// https://developer.apple.com/documentation/usernotifications/unnotificationrequest/trigger
    public let trigger: UNNotificationTrigger?

    public init(identifier: String, content: UNNotificationContent) {
        self.identifier = identifier
        self.content = content.copy() as? UNNotificationContent ?? content
        self.trigger = nil
    }

    /// `init(identifier:content:trigger:)`
    /// (https://developer.apple.com/documentation/usernotifications/unnotificationrequest/init(identifier:content:trigger:)).
    public init(identifier: String, content: UNNotificationContent, trigger: UNNotificationTrigger?) {
        self.identifier = identifier
        self.content = content.copy() as? UNNotificationContent ?? content
        self.trigger = trigger
    }
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
