// Payload key paths are the shared rules' (`RichPushRules.PayloadKeyPath`): the vendors' rules and richpush's own read
// payloads alike. richpush's parsed JSON is what they read here.

extension JSONValue: PayloadNode {
    public func member(_ key: String) -> JSONValue? { self[key] }

    public var members: [(key: String, value: JSONValue)]? {
        if case .object(let object) = self { return object.pairs }
        return nil
    }

    public var elements: [JSONValue]? {
        if case .array(let array) = self { return array }
        return nil
    }

    public var string: String? { stringValue }

    public var isObject: Bool {
        if case .object = self { return true }
        return false
    }
}

extension PayloadKeyPath {
    /// The value at this path in a payload object, or nil.
    public func value(in object: JSONObject) -> JSONValue? {
        value(in: JSONValue.object(object))
    }
}
