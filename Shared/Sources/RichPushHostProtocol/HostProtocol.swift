import Foundation

/// The protocol between richpush and the process that runs a team's extension (`RichPushExtensionHost`, built from
/// the compatibility package), defined once for both sides.
///
/// Three channels:
/// - the host's standard input: ``HostCommand``s from richpush, one JSON object per line;
/// - the descriptor named by `RICHPUSH_EVENTS_FD`: ``HostEvent``s from the host, one JSON object per line;
/// - standard output and standard error: the extension's own (`print`, `NSLog`, `os_log`), its log.
///
/// A session: the host says ``HostEvent/hello(protocolVersion:)`` before the extension's principal class exists and
/// waits; richpush takes the process's memory baseline, checks the version, and answers ``HostCommand/start``; the host
/// makes the principal class (``HostEvent/ready``) and serves each ``HostCommand/request(_:)`` with its content handler
/// calls. It exits when its standard input ends, whatever it is doing: richpush is gone.
public enum HostProtocol {
    /// Bumped whenever a message changes shape or meaning; richpush refuses a host that speaks another version (an SDK
    /// from another richpush, through `RICHPUSH_EXTENSION_SDK`).
    public static let version = 3

    /// The environment variable naming the events descriptor.
    public static let eventsDescriptorVariable = "RICHPUSH_EVENTS_FD"

    /// One message as one line (no line break inside: JSON escapes them).
    public static func line<Message: Encodable>(_ message: Message) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(message) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }

    /// The message a line holds; nil when it holds none (the other side is someone's code: a line is a claim).
    public static func decode<Message: Decodable>(_ type: Message.Type, from line: some StringProtocol) -> Message? {
        try? JSONDecoder().decode(type, from: Data(line.utf8))
    }
}

/// What richpush tells the host.
public enum HostCommand: Codable, Sendable, Equatable {
    /// richpush has taken the memory baseline: make the principal class and serve requests.
    case start
    /// A notification for a new instance of the principal class.
    case request(HostRequest)
    /// The budget of request `id` has run out: call its instance's `serviceExtensionTimeWillExpire()`.
    case expire(id: String)

    private enum CodingKeys: String, CodingKey { case command, request, id }
    private enum Name: String, Codable { case start, request, expire }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch try container.decode(Name.self, forKey: .command) {
        case .start: self = .start
        case .request: self = .request(try container.decode(HostRequest.self, forKey: .request))
        case .expire: self = .expire(id: try container.decode(String.self, forKey: .id))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .start:
            try container.encode(Name.start, forKey: .command)
        case .request(let request):
            try container.encode(Name.request, forKey: .command)
            try container.encode(request, forKey: .request)
        case .expire(let id):
            try container.encode(Name.expire, forKey: .command)
            try container.encode(id, forKey: .id)
        }
    }
}

/// A notification as iOS hands it to the extension: its identifier, the content iOS builds from the payload, and
/// the whole APNs payload as `userInfo`.
public struct HostRequest: Codable, Sendable, Equatable {
    /// The request's identifier; every event about it carries it.
    public var id: String
    public var content: HostContent
    /// The APNs payload as JSON text (an object): the host reads it as iOS's `userInfo` is read, with
    /// JSONSerialization.
    public var userInfo: String

    public init(id: String, content: HostContent, userInfo: String) {
        self.id = id
        self.content = content
        self.userInfo = userInfo
    }
}

/// A notification's content, both ways: what iOS built from the payload, and what the extension handed back.
public struct HostContent: Codable, Sendable, Equatable {
    public var title: String
    public var subtitle: String
    public var body: String
    public var badge: Int?
    /// `default`, or the sound file's name.
    public var sound: String?
    public var threadIdentifier: String
    public var categoryIdentifier: String
    public var targetContentIdentifier: String?
    /// `passive`, `active`, `time-sensitive`, `critical`.
    public var interruptionLevel: String?
    public var relevanceScore: Double?
    /// The attachments, as the extension's content handler call carried them (empty in a request).
    public var attachments: [HostAttachment]
    /// The message's sender, when the content was updated from a communication intent
    /// (`UNNotificationContent.updating(from:)` with an `INSendMessageIntent`).
    public var communication: HostCommunication?

    public init(
        title: String = "", subtitle: String = "", body: String = "", badge: Int? = nil, sound: String? = nil,
        threadIdentifier: String = "", categoryIdentifier: String = "", targetContentIdentifier: String? = nil,
        interruptionLevel: String? = nil, relevanceScore: Double? = nil, attachments: [HostAttachment] = [],
        communication: HostCommunication? = nil
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
        self.attachments = attachments
        self.communication = communication
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        title = try container.decodeIfPresent(String.self, forKey: .title) ?? ""
        subtitle = try container.decodeIfPresent(String.self, forKey: .subtitle) ?? ""
        body = try container.decodeIfPresent(String.self, forKey: .body) ?? ""
        badge = try container.decodeIfPresent(Int.self, forKey: .badge)
        sound = try container.decodeIfPresent(String.self, forKey: .sound)
        threadIdentifier = try container.decodeIfPresent(String.self, forKey: .threadIdentifier) ?? ""
        categoryIdentifier = try container.decodeIfPresent(String.self, forKey: .categoryIdentifier) ?? ""
        targetContentIdentifier = try container.decodeIfPresent(String.self, forKey: .targetContentIdentifier)
        interruptionLevel = try container.decodeIfPresent(String.self, forKey: .interruptionLevel)
        relevanceScore = try container.decodeIfPresent(Double.self, forKey: .relevanceScore)
        attachments = try container.decodeIfPresent([HostAttachment].self, forKey: .attachments) ?? []
        communication = try container.decodeIfPresent(HostCommunication.self, forKey: .communication)
    }
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

    public init(identifier: String, file: String, type: String) {
        self.identifier = identifier
        self.file = file
        self.type = type
    }
}

/// What the host tells richpush.
public enum HostEvent: Codable, Sendable, Equatable {
    /// The process runs and its principal class does not exist yet; the host waits for ``HostCommand/start``.
    case hello(protocolVersion: Int)
    /// The principal class exists.
    case ready
    /// The content handler of request `id` was called (`call` counts from 1) with a content whose `userInfo` is
    /// request `contentOf`'s (nil: no request's, the extension changed it); another request's is cross-talk.
    case contentHandler(id: String, call: Int, content: HostContent, contentOf: String? = nil)
    /// `UNNotificationAttachment(identifier:url:options:)` threw: the UNError by name and why.
    case attachmentFailed(id: String?, identifier: String, url: String, error: String)
    /// Something the host could not do (a request line it could not read).
    case error(detail: String)
    /// A vendor's SDK would have sent this request besides the image (recorded, never sent).
    case wouldSend(id: String?, vendor: String, request: HostWouldSend)
    /// A vendor's SDK attached no image: the reason, in the result contract's words (`httpStatus`, `timeout`,
    /// `unsupportedImageType`, …), and the detail.
    case imageFailed(id: String?, vendor: String, reason: String, detail: String)
    /// Something an Apple framework did differently under richpush than on a phone, which the user should know
    /// (`Security`: a keychain lookup found nothing, the extension's keychain being empty).
    case frameworkNote(framework: String, detail: String)

    private enum CodingKeys: String, CodingKey {
        case event, protocolVersion, id, call, content, identifier, url, error, detail, vendor, request, reason
        case framework, contentOf
    }
    private enum Name: String, Codable {
        case hello, ready, contentHandler, attachmentFailed, error, wouldSend, imageFailed, frameworkNote
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch try container.decode(Name.self, forKey: .event) {
        case .hello:
            self = .hello(protocolVersion: try container.decode(Int.self, forKey: .protocolVersion))
        case .ready:
            self = .ready
        case .contentHandler:
            self = .contentHandler(
                id: try container.decode(String.self, forKey: .id), call: try container.decode(Int.self, forKey: .call),
                content: try container.decode(HostContent.self, forKey: .content),
                contentOf: try container.decodeIfPresent(String.self, forKey: .contentOf))
        case .attachmentFailed:
            self = .attachmentFailed(
                id: try container.decodeIfPresent(String.self, forKey: .id),
                identifier: try container.decodeIfPresent(String.self, forKey: .identifier) ?? "",
                url: try container.decodeIfPresent(String.self, forKey: .url) ?? "",
                error: try container.decodeIfPresent(String.self, forKey: .error) ?? "an error")
        case .error:
            self = .error(detail: try container.decodeIfPresent(String.self, forKey: .detail) ?? "")
        case .wouldSend:
            self = .wouldSend(
                id: try container.decodeIfPresent(String.self, forKey: .id),
                vendor: try container.decode(String.self, forKey: .vendor),
                request: try container.decode(HostWouldSend.self, forKey: .request))
        case .imageFailed:
            self = .imageFailed(
                id: try container.decodeIfPresent(String.self, forKey: .id),
                vendor: try container.decode(String.self, forKey: .vendor),
                reason: try container.decode(String.self, forKey: .reason),
                detail: try container.decodeIfPresent(String.self, forKey: .detail) ?? "")
        case .frameworkNote:
            self = .frameworkNote(
                framework: try container.decode(String.self, forKey: .framework),
                detail: try container.decodeIfPresent(String.self, forKey: .detail) ?? "")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .hello(let version):
            try container.encode(Name.hello, forKey: .event)
            try container.encode(version, forKey: .protocolVersion)
        case .ready:
            try container.encode(Name.ready, forKey: .event)
        case .contentHandler(let id, let call, let content, let contentOf):
            try container.encode(Name.contentHandler, forKey: .event)
            try container.encode(id, forKey: .id)
            try container.encode(call, forKey: .call)
            try container.encode(content, forKey: .content)
            try container.encodeIfPresent(contentOf, forKey: .contentOf)
        case .attachmentFailed(let id, let identifier, let url, let error):
            try container.encode(Name.attachmentFailed, forKey: .event)
            try container.encodeIfPresent(id, forKey: .id)
            try container.encode(identifier, forKey: .identifier)
            try container.encode(url, forKey: .url)
            try container.encode(error, forKey: .error)
        case .error(let detail):
            try container.encode(Name.error, forKey: .event)
            try container.encode(detail, forKey: .detail)
        case .wouldSend(let id, let vendor, let request):
            try container.encode(Name.wouldSend, forKey: .event)
            try container.encodeIfPresent(id, forKey: .id)
            try container.encode(vendor, forKey: .vendor)
            try container.encode(request, forKey: .request)
        case .imageFailed(let id, let vendor, let reason, let detail):
            try container.encode(Name.imageFailed, forKey: .event)
            try container.encodeIfPresent(id, forKey: .id)
            try container.encode(vendor, forKey: .vendor)
            try container.encode(reason, forKey: .reason)
            try container.encode(detail, forKey: .detail)
        case .frameworkNote(let framework, let detail):
            try container.encode(Name.frameworkNote, forKey: .event)
            try container.encode(framework, forKey: .framework)
            try container.encode(detail, forKey: .detail)
        }
    }
}

/// A request an SDK would make besides the image.
public struct HostWouldSend: Codable, Sendable, Equatable {
    public var method: String
    public var url: String
    /// The key fields, `name=value`, in order.
    public var fields: [String]
    public var note: String?

    public init(method: String, url: String, fields: [String] = [], note: String? = nil) {
        self.method = method
        self.url = url
        self.fields = fields
        self.note = note
    }

    /// One line: `POST https://host/path a=1, b=2 (note)`.
    public var summary: String {
        "\(method) \(url)" + (fields.isEmpty ? "" : " " + fields.joined(separator: ", "))
            + (note.map { " (\($0))" } ?? "")
    }
}
