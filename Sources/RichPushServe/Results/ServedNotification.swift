public import RichPushCore

/// One push that reached the server, accepted (and delivered through the notification system) or refused: its
/// result, which carries the request's transport and attributes, and what the sender was told.
public struct ServedNotification: Sendable, Equatable {
    /// Counts from 1 in the order results completed.
    public var sequence: Int
    /// The HTTP status the sender got.
    public var status: Int
    /// What the device did with the payload; for a refused request, a result with `delivered: false` and the
    /// endpoint's rejection.
    public var result: DeliveryResult

    public init(sequence: Int = 0, status: Int, result: DeliveryResult) {
        self.sequence = sequence
        self.status = status
        self.result = result
    }

    public var transport: DeliveryTransport { result.transport }
    public var apns: APNsAttributes { result.apns ?? APNsAttributes(id: "") }
    public var endpointRejection: EndpointRejection? { result.endpointRejection }

    /// The result contract's object, plus `status` and, last, `sequence`.
    public var jsonValue: JSONValue {
        guard case .object(var object) = jsonValueBeforeSequence else { return result.jsonValue }
        object["sequence"] = .number(Double(sequence))
        return .object(object)
    }

    /// ``jsonValue`` without its last member, `sequence`: what ``ResultStore`` writes before it numbers the result.
    var jsonValueBeforeSequence: JSONValue {
        guard case .object(var object) = result.jsonValue else { return result.jsonValue }
        object["status"] = .number(Double(status))
        return .object(object)
    }
}
