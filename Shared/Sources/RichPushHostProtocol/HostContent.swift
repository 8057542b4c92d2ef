/// A notification's content, both ways and in one place: what iOS built from the payload, what the extension handed
/// back, and what richpush's result reports of it (`deliveredContent`). The compatibility package's
/// `UNNotificationContent` keeps its fields in one of these, so a property the extension can set is a field here or
/// is not stored at all.
/// https://developer.apple.com/documentation/usernotifications/unnotificationcontent
public struct HostContent: Codable, Sendable, Equatable {
    public var title: String
    public var subtitle: String
    public var body: String
    public var badge: Int?
    public var sound: HostSound?
    public var threadIdentifier: String
    public var categoryIdentifier: String
    public var targetContentIdentifier: String?
    /// `passive`, `active`, `time-sensitive` or `critical` (``InterruptionLevel``); what the payload says, as it says
    /// it, in a request.
    public var interruptionLevel: String?
    public var relevanceScore: Double?
    /// The Focus filter value the notification matches (`filter-criteria`).
    public var filterCriteria: String?
    /// Ignored by iOS since iOS 15; kept because an extension can still set them.
    public var summaryArgument: String
    public var summaryArgumentCount: Int
    public var launchImageName: String
    /// The attachments, as the extension's content handler call carried them (empty in a request).
    public var attachments: [HostAttachment]
    /// The message's sender, when the content was updated from a communication intent
    /// (`UNNotificationContent.updating(from:)` with an `INSendMessageIntent`).
    public var communication: HostCommunication?

    /// `UNNotificationInterruptionLevel` as the payload's `interruption-level` names it.
    public enum InterruptionLevel: String, Sendable, CaseIterable {
        case passive
        case active
        case timeSensitive = "time-sensitive"
        case critical
    }

    public init(
        title: String = "", subtitle: String = "", body: String = "", badge: Int? = nil, sound: HostSound? = nil,
        threadIdentifier: String = "", categoryIdentifier: String = "", targetContentIdentifier: String? = nil,
        interruptionLevel: String? = nil, relevanceScore: Double? = nil, filterCriteria: String? = nil,
        summaryArgument: String = "", summaryArgumentCount: Int = 0, launchImageName: String = "",
        attachments: [HostAttachment] = [], communication: HostCommunication? = nil
    ) {
        self.title = title
        self.subtitle = subtitle
        self.body = body
        self.badge = badge
        self.sound = sound
        self.threadIdentifier = threadIdentifier
        self.categoryIdentifier = categoryIdentifier
        self.targetContentIdentifier = targetContentIdentifier
        self.interruptionLevel = interruptionLevel
        self.relevanceScore = relevanceScore
        self.filterCriteria = filterCriteria
        self.summaryArgument = summaryArgument
        self.summaryArgumentCount = summaryArgumentCount
        self.launchImageName = launchImageName
        self.attachments = attachments
        self.communication = communication
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        title = try container.decodeIfPresent(String.self, forKey: .title) ?? ""
        subtitle = try container.decodeIfPresent(String.self, forKey: .subtitle) ?? ""
        body = try container.decodeIfPresent(String.self, forKey: .body) ?? ""
        badge = try container.decodeIfPresent(Int.self, forKey: .badge)
        sound = try container.decodeIfPresent(HostSound.self, forKey: .sound)
        threadIdentifier = try container.decodeIfPresent(String.self, forKey: .threadIdentifier) ?? ""
        categoryIdentifier = try container.decodeIfPresent(String.self, forKey: .categoryIdentifier) ?? ""
        targetContentIdentifier = try container.decodeIfPresent(String.self, forKey: .targetContentIdentifier)
        interruptionLevel = try container.decodeIfPresent(String.self, forKey: .interruptionLevel)
        relevanceScore = try container.decodeIfPresent(Double.self, forKey: .relevanceScore)
        filterCriteria = try container.decodeIfPresent(String.self, forKey: .filterCriteria)
        summaryArgument = try container.decodeIfPresent(String.self, forKey: .summaryArgument) ?? ""
        summaryArgumentCount = try container.decodeIfPresent(Int.self, forKey: .summaryArgumentCount) ?? 0
        launchImageName = try container.decodeIfPresent(String.self, forKey: .launchImageName) ?? ""
        attachments = try container.decodeIfPresent([HostAttachment].self, forKey: .attachments) ?? []
        communication = try container.decodeIfPresent(HostCommunication.self, forKey: .communication)
    }
}

/// A notification's sound (`UNNotificationSound`; the payload's `aps.sound`, a name or `{critical, name, volume}`).
public struct HostSound: Codable, Sendable, Equatable {
    /// The sound file's name in the app's bundle; nil for the default sound.
    public var name: String?
    /// A critical alert's sound, played through the ring/silent switch (with Apple's entitlement).
    public var critical: Bool
    /// A critical sound's volume, 0 to 1; nil for the system's.
    public var volume: Double?

    public init(name: String? = nil, critical: Bool = false, volume: Double? = nil) {
        self.name = name
        self.critical = critical
        self.volume = volume
    }

    /// `default`, or the file's name: how the result names it.
    public var displayName: String { name ?? "default" }
}

/// A communication notification's sender and conversation, as iOS shows them: the sender's name as the title, their
/// avatar beside it, the group's name.
public struct HostCommunication: Codable, Sendable, Equatable {
    public var senderName: String
    /// The sender's handle (an email address, a phone number, an account id).
    public var senderHandle: String?
    /// The avatar's image, written by the extension's process into the notification's attachment store.
    public var avatarFile: String?
    public var conversationIdentifier: String?
    /// The group conversation's name, when it is one.
    public var groupName: String?

    public init(
        senderName: String, senderHandle: String? = nil, avatarFile: String? = nil,
        conversationIdentifier: String? = nil, groupName: String? = nil
    ) {
        self.senderName = senderName
        self.senderHandle = senderHandle
        self.avatarFile = avatarFile
        self.conversationIdentifier = conversationIdentifier
        self.groupName = groupName
    }
}

/// An attachment the extension made: already moved into the notification's attachment store.
public struct HostAttachment: Codable, Sendable, Equatable {
    public var identifier: String
    /// The file's path in the store.
    public var file: String
    /// Its type identifier (`public.jpeg`).
    public var type: String
    /// The options it was made with, as far as they change what is shown.
    public var options: HostAttachmentOptions

    public init(identifier: String, file: String, type: String, options: HostAttachmentOptions = .init()) {
        self.identifier = identifier
        self.file = file
        self.type = type
        self.options = options
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        identifier = try container.decode(String.self, forKey: .identifier)
        file = try container.decode(String.self, forKey: .file)
        type = try container.decode(String.self, forKey: .type)
        options = try container.decodeIfPresent(HostAttachmentOptions.self, forKey: .options) ?? .init()
    }
}

/// `UNNotificationAttachment`'s options that change how it is shown.
/// https://developer.apple.com/documentation/usernotifications/unnotificationattachmentoptionsthumbnailclippingrectkey
public struct HostAttachmentOptions: Codable, Sendable, Equatable {
    /// `UNNotificationAttachmentOptionsTypeHintKey`.
    public var typeHint: String?
    /// `UNNotificationAttachmentOptionsThumbnailHiddenKey`.
    public var thumbnailHidden: Bool?
    /// `UNNotificationAttachmentOptionsThumbnailClippingRectKey`: the part of the image the thumbnail shows, in unit
    /// coordinates (x, y, width, height, each 0 to 1).
    public var thumbnailClippingRect: [Double]?
    /// `UNNotificationAttachmentOptionsThumbnailTimeKey`: the frame of an animated image or a video the thumbnail
    /// shows, in seconds (or the frame number for an animated image, as iOS reads it).
    public var thumbnailTime: Double?

    public init(
        typeHint: String? = nil, thumbnailHidden: Bool? = nil, thumbnailClippingRect: [Double]? = nil,
        thumbnailTime: Double? = nil
    ) {
        self.typeHint = typeHint
        self.thumbnailHidden = thumbnailHidden
        self.thumbnailClippingRect = thumbnailClippingRect
        self.thumbnailTime = thumbnailTime
    }
}
