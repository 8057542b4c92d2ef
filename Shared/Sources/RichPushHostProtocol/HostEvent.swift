public import RichPushRules

/// What the host tells richpush.
public enum HostEvent: Codable, Sendable, Equatable {
    /// The process runs and its principal class does not exist yet; the host waits for ``HostCommand/start``. Said
    /// once: a second one is a protocol violation.
    case hello(protocolVersion: Int)
    /// The principal class exists.
    case ready
    /// The content handler of request `id` was called (`call` counts from 1).
    ///
    /// `contentOf`: the request the delivered content was made from (the host marks each content it builds, and every
    /// copy of it carries the mark, whatever the extension changes in it); nil for a content the extension made
    /// itself. `calledFrom`: the request whose `didReceive` or `serviceExtensionTimeWillExpire()` was running on the
    /// calling thread when the handler was called; nil when none was (a completion, a timer). Either naming another
    /// request than `id` is evidence of state shared between them.
    case contentHandler(
        id: String, call: Int, content: HostContent, contentOf: String? = nil, calledFrom: String? = nil)
    /// `UNNotificationAttachment(identifier:url:options:)` threw: the UNError by name and why.
    case attachmentFailed(id: String?, identifier: String, url: String, error: String)
    /// Something the host could not do (a request line it could not read, an event it could not write).
    case error(detail: String)
    /// A vendor's SDK would have sent this request besides the image (recorded, never sent).
    case wouldSend(id: String?, vendor: String, request: HostWouldSend)
    /// A vendor's SDK attached no image: the reason in the result contract's terms, and the detail.
    case imageFailed(id: String?, vendor: String, reason: FallbackReason, detail: String)
    /// Something an Apple framework did differently under richpush than on a phone, which the user should know
    /// (`Security`: a keychain lookup found nothing, the extension's keychain being empty).
    case frameworkNote(framework: String, detail: String)
    /// The extension called `UNUserNotificationCenter.current()`'s `call`, from request `id`'s code (the request being
    /// served on the calling thread; nil when none was). richpush answers with ``HostCommand/answer(serial:_:)`` and the
    /// same `serial`.
    case center(serial: Int, id: String?, call: HostCenterCall)

    private enum CodingKeys: String, CodingKey {
        case event, protocolVersion, id, call, content, identifier, url, error, detail, vendor, request, reason
        case framework, contentOf, calledFrom, serial, method
    }
    private enum Name: String, Codable {
        case hello, ready, contentHandler, attachmentFailed, error, wouldSend, imageFailed, frameworkNote, center
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch try container.decode(Name.self, forKey: .event) {
        case .hello:
            self = .hello(protocolVersion: try container.decode(Int.self, forKey: .protocolVersion))
        case .ready:
            self = .ready
        case .center:
            self = .center(
                serial: try container.decode(Int.self, forKey: .serial),
                id: try container.decodeIfPresent(String.self, forKey: .id),
                call: try container.decode(HostCenterCall.self, forKey: .method))
        case .contentHandler:
            self = .contentHandler(
                id: try container.decode(String.self, forKey: .id), call: try container.decode(Int.self, forKey: .call),
                content: try container.decode(HostContent.self, forKey: .content),
                contentOf: try container.decodeIfPresent(String.self, forKey: .contentOf),
                calledFrom: try container.decodeIfPresent(String.self, forKey: .calledFrom))
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
            // A reason outside the contract makes the line no message: a protocol error, never another reason.
            self = .imageFailed(
                id: try container.decodeIfPresent(String.self, forKey: .id),
                vendor: try container.decode(String.self, forKey: .vendor),
                reason: try container.decode(FallbackReason.self, forKey: .reason),
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
        case .contentHandler(let id, let call, let content, let contentOf, let calledFrom):
            try container.encode(Name.contentHandler, forKey: .event)
            try container.encode(id, forKey: .id)
            try container.encode(call, forKey: .call)
            try container.encode(content, forKey: .content)
            try container.encodeIfPresent(contentOf, forKey: .contentOf)
            try container.encodeIfPresent(calledFrom, forKey: .calledFrom)
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
        case .center(let serial, let id, let call):
            try container.encode(Name.center, forKey: .event)
            try container.encode(serial, forKey: .serial)
            try container.encodeIfPresent(id, forKey: .id)
            try container.encode(call, forKey: .method)
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
