/// What a push request over the network said about its notification, the contract's `apns` object: the
/// APNs headers, or an FCM message's `apns` block and target.
public struct APNsAttributes: Sendable, Equatable {
    /// The `apns-id` answered with: the request's, or a new lowercase UUID.
    public var id: String
    public var token: String
    public var topic: String?
    public var pushType: String?
    public var priority: Int?
    /// `apns-expiration`, seconds since 1970 (0: deliver once or not at all).
    public var expiration: Int?
    public var collapseID: String?
    /// How the provider token was checked, e.g. "… signature not verified (no --auth-key)".
    public var auth: String?

    public init(
        id: String, token: String = "", topic: String? = nil, pushType: String? = nil, priority: Int? = nil,
        expiration: Int? = nil, collapseID: String? = nil, auth: String? = nil
    ) {
        self.id = id
        self.token = token
        self.topic = topic
        self.pushType = pushType
        self.priority = priority
        self.expiration = expiration
        self.collapseID = collapseID
        self.auth = auth
    }
}

extension APNsAttributes {
    /// The contract's `apns` object.
    public var jsonValue: JSONValue {
        func optional(_ string: String?) -> JSONValue { string.map { .string($0) } ?? .null }
        return [
            "id": .string(id), "token": .string(token), "topic": optional(topic), "pushType": optional(pushType),
            "priority": priority.map { .number(Double($0)) } ?? .null,
            "expiration": expiration.map { .number(Double($0)) } ?? .null,
            "collapseID": optional(collapseID), "auth": optional(auth),
        ]
    }
}
