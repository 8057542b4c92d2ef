import Foundation

/// The protocol between richpush and the process that runs a team's extension (`RichPushExtensionHost`, built from
/// the compatibility package), defined once for both sides: its messages, the environment richpush gives the
/// process, its process modes (``ExtensionProcessMode``) and its limits.
///
/// Three channels:
/// - the host's standard input: ``HostCommand``s from richpush, one JSON object per line;
/// - the descriptor named by ``Environment/eventsDescriptor``: ``HostEvent``s from the host, one JSON object per line;
/// - standard output and standard error: the extension's own (`print`, `NSLog`, `os_log`), its log.
///
/// A session: the host says ``HostEvent/hello(protocolVersion:)`` once, before the extension's principal class exists,
/// and waits; richpush takes the process's memory baseline, checks the version, and answers ``HostCommand/start``; the
/// host makes the principal class (``HostEvent/ready``) and serves each ``HostCommand/request(_:)`` with its content
/// handler calls. A second hello is a protocol violation: richpush ends the process (the baseline is taken once). The
/// host exits when its standard input ends, whatever it is doing: richpush is gone.
public enum HostProtocol {
    /// Bumped whenever a message changes shape or meaning; richpush refuses a host that speaks another version (an SDK
    /// from another richpush, through `RICHPUSH_EXTENSION_SDK`). 4: every content field both ways, attachments with
    /// their options, a content's request and the calling request on each handler call, fallback reasons as the
    /// contract's enum. 5: `UNUserNotificationCenter` calls (``HostEvent/center(serial:id:call:)``) and their answers
    /// (``HostCommand/answer(serial:_:)``).
    public static let version = 5

    /// The environment richpush gives the extension's process.
    public enum Environment {
        /// The descriptor the host writes its ``HostEvent``s to.
        public static let eventsDescriptor = "RICHPUSH_EVENTS_FD"
        /// How notifications map to the process: an ``ExtensionProcessMode`` raw value.
        public static let processMode = "RICHPUSH_PROCESS_MODE"
        /// In `each` mode, how long the process goes on after its first content handler call, in milliseconds.
        public static let lingerMilliseconds = "RICHPUSH_LINGER_MS"
        /// The notification's attachment store: where `UNNotificationAttachment` moves the files it accepts.
        public static let attachmentStore = "RICHPUSH_ATTACHMENT_STORE"
        /// The App Group's shared container (`containerURL(forSecurityApplicationGroupIdentifier:)`).
        public static let appGroupContainer = "RICHPUSH_APP_GROUP_CONTAINER"
    }

    /// How long a notification's process goes on after its first content handler call, so that a second call is
    /// seen: in `each` mode the host lingers this long and exits; in the others richpush waits this long before it
    /// decides the notification.
    public static let lingerMilliseconds = 200
    public static var linger: Duration { .milliseconds(lingerMilliseconds) }

    /// The longest line either side reads whole; the rest of a longer one is dropped.
    public static let maxLineBytes = 64 * 1024
    /// A notification's log keeps this many lines of the extension's output, each cut to ``maxLogLineCharacters``.
    public static let maxLogLines = 200
    public static let maxLogLineCharacters = 1_000
    /// Events richpush takes about one notification; later ones are counted and dropped.
    public static let maxEventsPerNotification = 1_000

    /// A message that cannot be written as a line: the message's kind and the encoder's reason.
    public struct EncodingFailure: Error, CustomStringConvertible {
        public var message: String
        public var reason: String
        public var description: String { "cannot write \(message) as a line of the host protocol: \(reason)" }
    }

    /// One message as one line (no line break inside: JSON escapes them). Throws when the message has no JSON form
    /// (a number that is not finite): it is never sent as something else.
    public static func line<Message: Encodable>(_ message: Message) throws(EncodingFailure) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            return String(decoding: try encoder.encode(message), as: UTF8.self)
        } catch {
            throw EncodingFailure(message: "\(Message.self)", reason: "\(error)")
        }
    }

    /// The message a line holds; nil when it holds none (the other side is someone's code: a line is a claim).
    public static func decode<Message: Decodable>(_ type: Message.Type, from line: some StringProtocol) -> Message? {
        try? JSONDecoder().decode(type, from: Data(line.utf8))
    }
}
