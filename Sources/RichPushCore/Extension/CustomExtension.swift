/// Which extension handled a notification (the result's `extension`): the built-in one, a vendor SDK's as
/// richpush emulates it, or a team's own, built from its sources and run in a process of its own.
public struct ExtensionIdentity: Sendable, Equatable {
    public enum Kind: String, Sendable, Codable {
        case builtin, sdk, custom
    }

    public var kind: Kind
    /// Where it comes from: the extension's folder (custom) or the SDK source its rules were read in.
    public var source: String?
    /// The principal class richpush instantiated (custom only).
    public var principalClass: String?

    public init(kind: Kind, source: String? = nil, principalClass: String? = nil) {
        self.kind = kind
        self.source = source
        self.principalClass = principalClass
    }

    /// The identity of the emulated extension a profile stands for.
    public static func emulated(_ profile: SDKProfile) -> ExtensionIdentity {
        profile == .requirement
            ? ExtensionIdentity(kind: .builtin, source: "richpush (the requirement's extension)")
            : ExtensionIdentity(kind: .sdk, source: profile.source)
    }

    public var jsonValue: JSONValue {
        [
            "kind": .string(kind.rawValue), "source": source.map { .string($0) } ?? .null,
            "principalClass": principalClass.map { .string($0) } ?? .null,
        ]
    }
}

/// What a team's extension handed to its content handler.
public struct HandedContent: Sendable, Equatable {
    public var title: String
    public var subtitle: String
    public var body: String
    public var badge: Int?
    public var sound: String?
    public var threadIdentifier: String
    public var categoryIdentifier: String
    public var attachments: [HandedAttachment]

    public init(
        title: String = "", subtitle: String = "", body: String = "", badge: Int? = nil, sound: String? = nil,
        threadIdentifier: String = "", categoryIdentifier: String = "", attachments: [HandedAttachment] = []
    ) {
        self.title = title
        self.subtitle = subtitle
        self.body = body
        self.badge = badge
        self.sound = sound
        self.threadIdentifier = threadIdentifier
        self.categoryIdentifier = categoryIdentifier
        self.attachments = attachments
    }

    public var text: NotificationContent { NotificationContent(title: title, subtitle: subtitle, body: body) }

    /// The contract's `deliveredContent`.
    public var jsonValue: JSONValue {
        [
            "title": .string(title), "subtitle": .string(subtitle), "body": .string(body),
            "badge": badge.map { .number(Double($0)) } ?? .null, "sound": sound.map { .string($0) } ?? .null,
            "threadID": .string(threadIdentifier), "category": .string(categoryIdentifier),
            "attachments": .number(Double(attachments.count)),
        ]
    }
}

/// An attachment as the extension's `UNNotificationAttachment` made it: already checked by iOS's rules (a file, a
/// known type, its size cap) and moved into the system's store.
public struct HandedAttachment: Sendable, Equatable {
    public var identifier: String
    /// Where the file is in the notification's attachment store.
    public var file: String
    /// Its type identifier (`public.jpeg`).
    public var type: String
    /// What the file's bytes are, as the system reads them: the image, or what it is instead ("HTML text").
    public var inspection: Inspection

    public enum Inspection: Sendable, Equatable {
        case image(DownloadedImage)
        case notAnImage(String)
        /// Audio or video: iOS attaches it; richpush does not play it.
        case media
    }

    public init(identifier: String, file: String, type: String, inspection: Inspection) {
        self.identifier = identifier
        self.file = file
        self.type = type
        self.inspection = inspection
    }
}

/// One notification for a team's extension.
public struct CustomExtensionInvocation: Sendable {
    /// The request's identifier.
    public var identifier: String
    /// The request as the system decoded it (after FCM translation): the content iOS builds, and the APNs payload
    /// that becomes `userInfo`.
    public var request: NotificationRequest
    /// Time before `serviceExtensionTimeWillExpire()`.
    public var budget: Duration

    public init(identifier: String, request: NotificationRequest, budget: Duration) {
        self.identifier = identifier
        self.request = request
        self.budget = budget
    }
}

/// What happens while a team's extension runs, as its host sees it.
public enum CustomExtensionEvent: Sendable, Equatable {
    /// The process exists and the principal class was made.
    case started(String)
    /// The budget ran out and `serviceExtensionTimeWillExpire()` was called.
    case timeWillExpire
    /// The content handler was called (`call` counts from 1; iOS uses only the first).
    case contentHandler(HandedContent, call: Int)
    /// A request the extension made, or one refused on its behalf: "GET https://… → 200, 1234 bytes, 0.12 s".
    case request(String)
    /// `UNNotificationAttachment(identifier:url:options:)` threw: the UNError by name and why.
    case attachmentFailed(String)
    /// The process has ended; always the last event.
    case ended(CustomExtensionRun)
}

/// How a run of a team's extension ended.
public enum CustomExtensionEnd: Sendable, Equatable {
    /// The content handler was called (see the run's `contentHandlerCalls`).
    case contentHandlerCalled
    /// The process ended, or was ended, without calling it; the detail says how.
    case contentHandlerNeverCalled(String)
    /// It crashed before calling it: the signal or status, and the last lines it wrote to standard error.
    case crashed(String)
    /// Its memory footprint passed the limit; the detail gives the figures.
    case memoryLimit(String)
    /// It could not be started at all.
    case failedToStart(String)
}

/// What richpush's host saw of one run of a team's extension.
public struct CustomExtensionRun: Sendable, Equatable {
    public var end: CustomExtensionEnd
    public var contentHandlerCalls: Int
    /// Its standard output and standard error, line by line, capped.
    public var log: [String]
    /// The largest memory footprint seen above an empty extension's, in bytes; nil when never measured.
    public var peakFootprintBytes: Int?

    public init(end: CustomExtensionEnd, contentHandlerCalls: Int, log: [String], peakFootprintBytes: Int? = nil) {
        self.end = end
        self.contentHandlerCalls = contentHandlerCalls
        self.log = log
        self.peakFootprintBytes = peakFootprintBytes
    }
}

/// Runs a team's own extension, one process per notification; the system side (when it runs, the budget's clock,
/// what is presented) stays ``NotificationSystem``'s.
public protocol CustomExtensionHosting: Sendable {
    var identity: ExtensionIdentity { get }

    /// Runs the extension for one notification under `clock`: its events as they happen (the system presents the
    /// notification at the first content handler call), ending with `.ended` once the process has ended. Never
    /// fails: a failure is the run's `end`. Ending the iteration early (cancellation) ends the process.
    func run(_ invocation: CustomExtensionInvocation, clock: any Clock<Duration>) -> AsyncStream<CustomExtensionEvent>

    /// Lets a presented attachment's file go once its result is reported.
    func discardAttachment(atPath path: String) async
}

extension CustomExtensionInvocation {
    /// The line that hands the request to the extension's process: its identifier, the content iOS builds from
    /// the payload (decoded once, by ``PayloadDecoder``), and the whole APNs payload as `userInfo`. One line: the
    /// writer escapes every line break.
    public var requestLine: String {
        var content: JSONObject = [
            "title": .string(request.content.title), "subtitle": .string(request.content.subtitle),
            "body": .string(request.content.body), "threadIdentifier": .string(request.threadID ?? ""),
            "categoryIdentifier": .string(request.category ?? ""),
        ]
        if let badge = request.badge { content["badge"] = .number(Double(badge)) }
        if let sound = request.sound { content["sound"] = .string(sound) }
        if let target = request.targetContentID { content["targetContentIdentifier"] = .string(target) }
        if let level = request.interruptionLevel { content["interruptionLevel"] = .string(level) }
        if let score = request.relevanceScore { content["relevanceScore"] = .number(score) }
        let line: JSONValue = [
            "identifier": .string(identifier), "content": .object(content), "userInfo": .object(request.payload),
        ]
        return JSONWriter.string(line)
    }
}
