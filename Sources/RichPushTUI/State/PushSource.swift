/// Where a push that arrived over the network came from: the name its row shows ("APNs push 0123456…",
/// "FCM push") and what the request said (topic, push type, priority, how the provider token was checked…),
/// which its detail lists.
public struct PushSource: Equatable, Sendable, ExpressibleByStringLiteral {
    /// One thing the request said: "Topic", "com.example.app".
    public struct Detail: Equatable, Sendable {
        public var label: String
        public var value: String

        public init(_ label: String, _ value: String) {
            self.label = label
            self.value = value
        }
    }

    public var name: String
    public var details: [Detail]

    public init(name: String, details: [Detail] = []) {
        self.name = name
        self.details = details
    }

    public init(stringLiteral name: String) {
        self.init(name: name)
    }
}
