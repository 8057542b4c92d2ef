import Foundation

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

/// What a team's extension handed to its content handler: every field of the content as the host protocol carries
/// it (``HostContent``, the one description of a content for richpush, its result and the compatibility modules), with
/// its attachments and sender as the system checked them.
public struct HandedContent: Sendable, Equatable {
    /// The content's fields as the extension set them (its `attachments` and `communication` as the extension's
    /// process reported them, unchecked: see ``attachments`` and ``communication``).
    public var content: HostContent
    public var attachments: [HandedAttachment]
    /// The sender, when the extension made a communication notification of it (`updating(from:)` an intent).
    public var communication: Communication?
    /// Set when the handler delivered another notification's content.
    public var crossTalk: CrossTalk?

    public init(_ content: HostContent, attachments: [HandedAttachment] = [], communication: Communication? = nil) {
        self.content = content
        self.attachments = attachments
        self.communication = communication
    }

    public var title: String { content.title }
    public var subtitle: String { content.subtitle }
    public var body: String { content.body }
    public var badge: Int? { content.badge }
    /// `default`, or the sound file's name.
    public var sound: String? { content.sound?.displayName }
    public var threadIdentifier: String { content.threadIdentifier }
    public var categoryIdentifier: String { content.categoryIdentifier }

    public var text: NotificationContent { NotificationContent(title: title, subtitle: subtitle, body: body) }

    /// The contract's `deliveredContent`: every field the extension can set, named as the result names the
    /// payload's (`threadID`, `category`, `targetContentID`), the attachments counted and each with its options.
    public var jsonValue: JSONValue {
        func optional(_ text: String?) -> JSONValue { text.map { .string($0) } ?? .null }
        return [
            "title": .string(content.title), "subtitle": .string(content.subtitle), "body": .string(content.body),
            "badge": content.badge.map { .number(Double($0)) } ?? .null, "sound": optional(sound),
            "criticalSound": content.sound.flatMap {
                $0.critical ? ["volume": $0.volume.map { .number($0) } ?? .null] : nil
            } ?? .null,
            "threadID": .string(content.threadIdentifier), "category": .string(content.categoryIdentifier),
            "targetContentID": optional(content.targetContentIdentifier),
            "interruptionLevel": optional(content.interruptionLevel),
            "relevanceScore": content.relevanceScore.map { .number($0) } ?? .null,
            "filterCriteria": optional(content.filterCriteria),
            "summaryArgument": .string(content.summaryArgument),
            "summaryArgumentCount": .number(Double(content.summaryArgumentCount)),
            "launchImageName": .string(content.launchImageName),
            "attachments": .number(Double(attachments.count)),
            "attachmentOptions": .array(content.attachments.map(\.options.jsonValue)),
        ]
    }
}

extension HostAttachmentOptions {
    /// One attachment's options in `deliveredContent.attachmentOptions`.
    public var jsonValue: JSONValue {
        [
            "typeHint": typeHint.map { .string($0) } ?? .null,
            "thumbnailHidden": thumbnailHidden.map { .bool($0) } ?? .null,
            "thumbnailClippingRect": thumbnailClippingRect.map { .array($0.map { .number($0) }) } ?? .null,
            "thumbnailTime": thumbnailTime.map { .number($0) } ?? .null,
        ]
    }
}

/// A communication notification's sender and conversation, as iOS shows them: the sender's name in place of the
/// app's, their avatar beside the text, the group's name (the result's `communication`).
public struct Communication: Sendable, Equatable {
    public var senderName: String
    public var senderHandle: String?
    public var conversationID: String?
    public var groupName: String?
    /// The avatar as the system read it; nil when the sender has none or it could not be read (``avatarProblem``).
    public var avatar: DownloadedImage?
    /// Why the avatar the extension gave is not shown.
    public var avatarProblem: String?

    public init(
        senderName: String, senderHandle: String? = nil, conversationID: String? = nil, groupName: String? = nil,
        avatar: DownloadedImage? = nil, avatarProblem: String? = nil
    ) {
        self.senderName = senderName
        self.senderHandle = senderHandle
        self.conversationID = conversationID
        self.groupName = groupName
        self.avatar = avatar
        self.avatarProblem = avatarProblem
    }

    /// The contract's `communication`.
    public var jsonValue: JSONValue {
        [
            "senderName": .string(senderName), "senderHandle": senderHandle.map { .string($0) } ?? .null,
            "conversationID": conversationID.map { .string($0) } ?? .null,
            "groupName": groupName.map { .string($0) } ?? .null,
            "avatar": avatar.map {
                [
                    "format": .string($0.format.rawValue), "width": .number(Double($0.width)),
                    "height": .number(Double($0.height)), "bytes": .number(Double($0.bytes)),
                    "file": .string($0.file.path),
                ]
            } ?? .null,
            "avatarProblem": avatarProblem.map { .string($0) } ?? .null,
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
        /// Audio or video, read by its real container and codecs (with a video's poster frame, or why there is none).
        case media(MediaAttachment, MediaStreams, posterProblem: String?)
        /// Declared as audio or video, and not a file of either: what it is instead ("truncated: …", "a PNG image").
        case notMedia(String)
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
    /// The notification as the user knows it (its payload file), for what another notification's result says of it.
    public var label: String
    /// How the notification maps to the extension's processes.
    public var processMode: ExtensionProcessMode
    /// The memory the process may use above an empty extension's while it has this notification (a payload's own
    /// `given.extensionMemory`, else `--extension-memory`); nil: the host's limit.
    public var memoryLimitBytes: Int?
    /// `UNUserNotificationCenter.current()` for this notification's extension; nil: calls are answered as if nothing
    /// had been delivered and nothing is kept.
    public var center: NotificationCenterSession?

    public init(
        identifier: String, request: NotificationRequest, budget: Duration, label: String = "",
        processMode: ExtensionProcessMode = .defaultMode, memoryLimitBytes: Int? = nil,
        center: NotificationCenterSession? = nil
    ) {
        self.center = center
        self.identifier = identifier
        self.request = request
        self.budget = budget
        self.label = label
        self.processMode = processMode
        self.memoryLimitBytes = memoryLimitBytes
    }
}

/// A content handler that delivered another notification's content (the result's `crossTalk`): state the extension
/// shares between the notifications one process serves, which iOS runs together or one after another.
public struct CrossTalk: Sendable, Equatable {
    /// The notification whose content this one's handler delivered (its payload file), or whose handler delivered
    /// this one's content.
    public var other: String
    public var detail: String

    public init(other: String, detail: String) {
        self.other = other
        self.detail = detail
    }

    public var jsonValue: JSONValue { ["other": .string(other), "detail": .string(detail)] }
}

/// The process a team's extension ran in, as the result's `extensionProcess` names it.
public struct ExtensionProcessInfo: Sendable, Equatable {
    /// `each`, `reuse`, `concurrent`, `same-instance`.
    public var mode: String
    public var pid: Int32
    /// Notifications the process had been handed before this one.
    public var handledBefore: Int
    /// Seconds the process had run when this notification reached it.
    public var age: Double
    /// Which instance of the principal class served it: `#1` is the one made at launch.
    public var instance: String

    public init(mode: String, pid: Int32, handledBefore: Int, age: Double, instance: String) {
        self.mode = mode
        self.pid = pid
        self.handledBefore = handledBefore
        self.age = age
        self.instance = instance
    }

    public var jsonValue: JSONValue {
        [
            "mode": .string(mode), "pid": .number(Double(pid)), "handledBefore": .number(Double(handledBefore)),
            "age": .number((age * 1000).rounded() / 1000), "instance": .string(instance),
        ]
    }

    /// How the timeline names it: "process 1234 (its 3rd notification, 2.1 s old), instance #3".
    public var summary: String {
        let nth = handledBefore + 1
        let suffix =
            switch nth % 100 {
            case 11, 12, 13: "th"
            default: [1: "st", 2: "nd", 3: "rd"][nth % 10] ?? "th"
            }
        return
            "process \(pid) (its \(nth)\(suffix) notification, \(String(format: "%.1f", age)) s old), instance \(instance)"
    }
}

/// What happens while a team's extension runs, as its host sees it.
public enum CustomExtensionEvent: Sendable, Equatable {
    /// The notification reached the process, and which process and instance.
    case started(ExtensionProcessInfo)
    /// The budget ran out and `serviceExtensionTimeWillExpire()` was called.
    case timeWillExpire
    /// The content handler was called (`call` counts from 1; iOS uses only the first).
    case contentHandler(HandedContent, call: Int)
    /// A request the extension made, or one refused on its behalf: "GET https://… → 200, 1234 bytes, 0.12 s".
    case request(String)
    /// `UNNotificationAttachment(identifier:url:options:)` threw: the UNError by name and why.
    case attachmentFailed(String)
    /// A vendor's SDK in the extension would have sent this request (one line), which nothing sent.
    case wouldSend(String)
    /// A vendor's SDK in the extension attached no image: the reason in the contract's words, and why.
    case vendorImageFailed(FallbackReason, String)
    /// An Apple framework did something differently under richpush than on a phone: "Security: …".
    case frameworkNote(String)
    /// A `UNUserNotificationCenter` call the extension made, and what it did, in a sentence.
    case notificationCenter(String)
    /// The process has ended; always the last event.
    case ended(CustomExtensionRun)
}

/// How a run of a team's extension ended, as what happened (a signal, a status, byte counts), not as a sentence:
/// ``detail`` says it for people.
public enum CustomExtensionEnd: Sendable, Equatable {
    /// The content handler was called (see the run's `contentHandlerCalls`).
    case contentHandlerCalled
    /// The process ended, or was ended, without calling it.
    case contentHandlerNeverCalled(NeverCalled)
    /// It crashed before calling it.
    case crashed(Crash)
    /// Its memory footprint passed the limit: bytes above an empty extension's, and the limit.
    case memoryLimit(usedBytes: Int, limitBytes: Int)
    /// It said hello again on the events channel, which would have taken a new memory baseline: a protocol violation,
    /// ended as the memory limit is (the baseline of its first hello stands).
    case greetedAgain(usedBytes: Int, limitBytes: Int)
    /// It could not be started at all.
    case failedToStart(StartProblem)

    /// How a process ended without calling its content handler.
    public enum NeverCalled: Sendable, Equatable {
        /// The system ended it (SIGKILL) after its budget and grace.
        case endedAfterBudget(budget: Duration, grace: Duration)
        /// It exited (status 0) on its own.
        case exited
        /// richpush stopped while it ran.
        case richpushStopped
        /// The process it was in was ended for another reason than its own (another notification's budget ran out):
        /// why, in a sentence.
        case endedWithTheProcess(String)
    }

    /// A crash: the signal or the exit status, the runtime's fatal error line, the last lines on standard error.
    public struct Crash: Sendable, Equatable {
        public var signal: Int32?
        public var status: Int32?
        /// The runtime's own message (`…: Fatal error: Unexpectedly found nil…`), when it printed one.
        public var fatalError: String?
        /// Its last lines on standard error.
        public var lastLines: [String]

        public init(signal: Int32? = nil, status: Int32? = nil, fatalError: String? = nil, lastLines: [String] = []) {
            self.signal = signal
            self.status = status
            self.fatalError = fatalError
            self.lastLines = lastLines
        }
    }

    /// Why a process could not be started.
    public enum StartProblem: Error, Sendable, Equatable {
        /// Its container folders could not be made: where, and the system's words.
        case container(path: String, reason: String)
        /// Its network proxy could not listen.
        case proxy(reason: String)
        /// The program could not be started: its path and the system's error number.
        case spawn(path: String, errno: Int32)
        /// The host speaks another version of the host protocol (an SDK from another richpush); version 1 said no
        /// version.
        case protocolVersion(found: Int, expected: Int, sdk: String?)
        /// The request could not be written for the host (richpush's own fault, never sent as something else).
        case request(reason: String)
    }

    /// The end in words, for the timeline and the fallback.
    public var detail: String {
        switch self {
        case .contentHandlerCalled:
            return "done after its content handler was called"
        case .contentHandlerNeverCalled(.endedAfterBudget(let budget, let grace)):
            return
                "ended by the system (SIGKILL) after its budget of \(budget.shortDescription) and a grace of \(grace.shortDescription) without calling its content handler"
        case .contentHandlerNeverCalled(.exited):
            return "the process exited without calling its content handler"
        case .contentHandlerNeverCalled(.richpushStopped):
            return "ended when richpush stopped"
        case .contentHandlerNeverCalled(.endedWithTheProcess(let why)):
            return "ended with its process before calling its content handler: \(why)"
        case .crashed(let crash):
            let how =
                if let signal = crash.signal {
                    "crashed with signal \(signal) (\(Self.signalName(signal)))"
                } else {
                    "exited with status \(crash.status ?? 0)"
                }
            return how + Self.lastWords(crash.fatalError, crash.lastLines)
        case .memoryLimit(let used, let limit):
            return
                "ended by the system (SIGKILL): its memory footprint reached \(ByteCount.limit(used)) above an empty extension's, over the limit of \(ByteCount.limit(limit))"
        case .greetedAgain(let used, let limit):
            return
                "ended by the system (SIGKILL): it said hello again on \(HostProtocol.Environment.eventsDescriptor) (a second hello, a protocol violation that would reset its memory baseline); its footprint was \(ByteCount.limit(used)) above an empty extension's at its first hello, the limit \(ByteCount.limit(limit))"
        case .failedToStart(.container(let path, let reason)):
            return "cannot create its container in \(path): \(reason)"
        case .failedToStart(.request(let reason)):
            return "cannot hand it the request: \(reason)"
        case .failedToStart(.proxy(let reason)):
            return "cannot start its network proxy: \(reason)"
        case .failedToStart(.spawn(let path, let code)):
            return "cannot start \(path): \(String(cString: strerror(code)))"
        case .failedToStart(.protocolVersion(let found, let expected, let sdk)):
            return
                "its extension SDK\(sdk.map { " (\($0))" } ?? "") speaks host protocol version \(found), this richpush speaks \(expected): build the extension against this richpush's SDK (unset RICHPUSH_EXTENSION_SDK, or point it at this version's)"
        }
    }

    static func signalName(_ signal: Int32) -> String {
        switch signal {
        case SIGILL: "SIGILL, a Swift runtime trap: fatalError, a force unwrap of nil, try!, an index out of range"
        case SIGTRAP: "SIGTRAP, a Swift runtime trap"
        // In a PID namespace abort() cannot signal its own first process and ends in a fault instead.
        case SIGSEGV: "SIGSEGV, a bad memory access or an abort()"
        case SIGABRT: "SIGABRT"
        case SIGBUS: "SIGBUS"
        case SIGKILL: "SIGKILL"
        default: String(cString: strsignal(signal))
        }
    }

    /// The runtime's fatal error message when there is one, else the last lines on standard error.
    static func lastWords(_ fatal: String?, _ lines: [String]) -> String {
        if let fatal { return ": " + String(fatal.prefix(300)) }
        let kept = lines.suffix(4).map { String($0.prefix(300)) }
        return kept.isEmpty ? "" : "; its last lines on standard error: " + kept.joined(separator: " | ")
    }
}

/// What richpush's host saw of one run of a team's extension.
public struct CustomExtensionRun: Sendable, Equatable {
    public var end: CustomExtensionEnd
    public var contentHandlerCalls: Int
    /// Its standard output and standard error, line by line, capped.
    public var log: [String]
    /// The largest memory footprint seen above an empty extension's, in bytes; nil when never measured.
    public var peakFootprintBytes: Int?
    /// The process it ran in; nil when none started.
    public var process: ExtensionProcessInfo?
    /// The evidence of state shared with another notification of its process, when there is some: a content made
    /// from one request delivered through the other's handler, or one request's code calling the other's handler.
    public var crossTalk: CrossTalk?

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
