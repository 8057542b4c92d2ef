/// A push request the endpoint refused, as a recording keeps it (`given.request`), so replay can judge it again
/// offline: which endpoint, the method and path (the token in it hashed unless recorded as sent), and the headers
/// that decide a refusal, in order and with repeats. The authorization header is never among them.
public struct RecordedRequest: Sendable, Equatable {
    public enum Endpoint: String, Sendable, Equatable {
        case apns
        case fcm
    }

    public var endpoint: Endpoint
    public var method: String
    public var path: String
    public var headers: [(name: String, value: String)]
    /// The token was refused as unregistered (`--unregistered`): replay counts it as unregistered again.
    public var unregistered: Bool
    /// The app the endpoint took tokens for (`--bundle-id`), which decides `DeviceTokenNotForTopic`.
    public var bundleID: String?
    /// Why the refusal cannot be judged again offline (a provider token, which is never recorded), or nil.
    public var offline: String?

    public init(
        endpoint: Endpoint, method: String, path: String, headers: [(name: String, value: String)],
        unregistered: Bool = false, bundleID: String? = nil, offline: String? = nil
    ) {
        self.bundleID = bundleID
        self.endpoint = endpoint
        self.method = method
        self.path = path
        self.headers = headers
        self.unregistered = unregistered
        self.offline = offline
    }

    public static func == (lhs: RecordedRequest, rhs: RecordedRequest) -> Bool {
        lhs.endpoint == rhs.endpoint && lhs.method == rhs.method && lhs.path == rhs.path
            && lhs.headers.map(\.name) == rhs.headers.map(\.name)
            && lhs.headers.map(\.value) == rhs.headers.map(\.value)
            && lhs.unregistered == rhs.unregistered && lhs.bundleID == rhs.bundleID && lhs.offline == rhs.offline
    }

    public var jsonValue: JSONValue {
        var object: JSONObject = [
            "endpoint": .string(endpoint.rawValue), "method": .string(method), "path": .string(path),
            "headers": .array(headers.map { [.string($0.name), .string($0.value)] }),
        ]
        if unregistered { object["unregistered"] = true }
        if let bundleID { object["bundleID"] = .string(bundleID) }
        if let offline { object["offline"] = .string(offline) }
        return .object(object)
    }

    /// Reads `given.request`; the error names the key and the problem.
    public static func parse(_ value: JSONValue) throws(DeliveryOverridesError) -> RecordedRequest {
        guard case .object(let object) = value else {
            throw DeliveryOverridesError("given.request must be an object (a refused push as it was recorded)")
        }
        guard let name = object["endpoint"]?.stringValue, let endpoint = Endpoint(rawValue: name) else {
            throw DeliveryOverridesError("given.request.endpoint must be \"apns\" or \"fcm\"")
        }
        guard let method = object["method"]?.stringValue, let path = object["path"]?.stringValue else {
            throw DeliveryOverridesError("given.request needs \"method\" and \"path\" strings")
        }
        var headers: [(name: String, value: String)] = []
        if let list = object["headers"] {
            guard case .array(let entries) = list else {
                throw DeliveryOverridesError("given.request.headers must be an array of [name, value] pairs")
            }
            for entry in entries {
                guard case .array(let pair) = entry, pair.count == 2, let name = pair[0].stringValue,
                    let text = pair[1].stringValue
                else {
                    throw DeliveryOverridesError(
                        "given.request.headers holds \(JSONWriter.string(entry)), not a [name, value] pair")
                }
                headers.append((name.lowercased(), text))
            }
        }
        var unregistered = false
        if let flag = object["unregistered"] {
            guard case .bool(let value) = flag else {
                throw DeliveryOverridesError("given.request.unregistered must be true or false")
            }
            unregistered = value
        }
        return RecordedRequest(
            endpoint: endpoint, method: method, path: path, headers: headers, unregistered: unregistered,
            bundleID: object["bundleID"]?.stringValue, offline: object["offline"]?.stringValue)
    }
}
