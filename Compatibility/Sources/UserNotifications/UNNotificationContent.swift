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

    open func copy(with zone: NSZone? = nil) -> Any { UNNotificationContent(fields: fields) }

    open func mutableCopy(with zone: NSZone? = nil) -> Any { UNMutableNotificationContent(fields: fields) }
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
