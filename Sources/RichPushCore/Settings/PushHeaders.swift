/// The APNs headers that change how a push is delivered, as a recording keeps them (`given.headers`): replay
/// delivers the payload with them as its `apns` attributes, so the collapse id replaces as it did live.
public struct PushHeaders: Sendable, Equatable {
    public var pushType: String?
    public var priority: Int?
    public var expiration: Int?
    public var collapseID: String?
    public var topic: String?

    /// The header names `given.headers` takes, as APNs spells them.
    public static let names = ["apns-push-type", "apns-priority", "apns-collapse-id", "apns-expiration", "apns-topic"]

    public init(
        pushType: String? = nil, priority: Int? = nil, expiration: Int? = nil, collapseID: String? = nil,
        topic: String? = nil
    ) {
        self.pushType = pushType
        self.priority = priority
        self.expiration = expiration
        self.collapseID = collapseID
        self.topic = topic
    }

    /// The headers of a push request's attributes.
    public init(_ attributes: APNsAttributes) {
        self.init(
            pushType: attributes.pushType, priority: attributes.priority, expiration: attributes.expiration,
            collapseID: attributes.collapseID, topic: attributes.topic)
    }

    public var isEmpty: Bool { self == PushHeaders() }

    /// The attributes a replayed file carries: no id and no token, which a file does not have.
    public var attributes: APNsAttributes {
        APNsAttributes(
            id: "", topic: topic, pushType: pushType, priority: priority, expiration: expiration,
            collapseID: collapseID)
    }

    /// `{"apns-push-type": "alert", "apns-priority": "10", …}`: header values are text, as they were sent.
    public var jsonValue: JSONValue {
        var object = JSONObject()
        if let pushType { object["apns-push-type"] = .string(pushType) }
        if let priority { object["apns-priority"] = .string(String(priority)) }
        if let collapseID { object["apns-collapse-id"] = .string(collapseID) }
        if let expiration { object["apns-expiration"] = .string(String(expiration)) }
        if let topic { object["apns-topic"] = .string(topic) }
        return .object(object)
    }

    /// Reads `given.headers`; the error names the header and the problem.
    public static func parse(_ value: JSONValue) throws(DeliveryOverridesError) -> PushHeaders {
        guard case .object(let object) = value else {
            throw DeliveryOverridesError(
                "given.headers must be an object of APNs headers like {\"apns-collapse-id\": \"chat-1\"}")
        }
        var headers = PushHeaders()
        for (name, value) in object.pairs {
            guard names.contains(name) else {
                throw DeliveryOverridesError(
                    "unknown header \"given.headers.\(name)\"; given.headers takes \(names.map { "\"\($0)\"" }.joined(separator: ", "))"
                )
            }
            guard let text = value.stringValue else {
                throw DeliveryOverridesError(
                    "given.headers.\(name) must be the header's text, not \(JSONWriter.string(value))")
            }
            switch name {
            case "apns-push-type": headers.pushType = text
            case "apns-collapse-id": headers.collapseID = text
            case "apns-topic": headers.topic = text
            case "apns-priority":
                guard let number = Int(text) else {
                    throw DeliveryOverridesError("given.headers.apns-priority must be 10, 5 or 1, not \"\(text)\"")
                }
                headers.priority = number
            default:
                guard let number = Int(text), number >= 0 else {
                    throw DeliveryOverridesError(
                        "given.headers.apns-expiration must be a UNIX time in seconds, not \"\(text)\"")
                }
                headers.expiration = number
            }
        }
        return headers
    }
}
