/// What richpush tells the host.
public enum HostCommand: Codable, Sendable, Equatable {
    /// richpush has taken the memory baseline: make the principal class and serve requests.
    case start
    /// A notification for a new instance of the principal class.
    case request(HostRequest)
    /// The budget of request `id` has run out: call its instance's `serviceExtensionTimeWillExpire()`.
    case expire(id: String)
    /// richpush's answer to the extension's ``HostEvent/center(serial:id:call:)`` with that serial.
    case answer(serial: Int, HostCenterAnswer)

    private enum CodingKeys: String, CodingKey { case command, request, id, serial, answer }
    private enum Name: String, Codable { case start, request, expire, answer }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch try container.decode(Name.self, forKey: .command) {
        case .start: self = .start
        case .request: self = .request(try container.decode(HostRequest.self, forKey: .request))
        case .expire: self = .expire(id: try container.decode(String.self, forKey: .id))
        case .answer:
            self = .answer(
                serial: try container.decode(Int.self, forKey: .serial),
                try container.decode(HostCenterAnswer.self, forKey: .answer))
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
        case .answer(let serial, let answer):
            try container.encode(Name.answer, forKey: .command)
            try container.encode(serial, forKey: .serial)
            try container.encode(answer, forKey: .answer)
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
