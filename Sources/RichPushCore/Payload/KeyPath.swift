/// A dotted path into a payload, such as `fcm_options.image` or `aps.alert.image`.
///
/// Some SDKs use dots inside their keys (`com.urbanairship.media_attachment`), so a path is matched
/// against the keys that exist: at each level the longest run of components naming a key wins.
public struct PayloadKeyPath: Sendable, Hashable, CustomStringConvertible,
    ExpressibleByStringLiteral
{
    public let components: [String]

    public init?(parsing text: String) {
        let components = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard !text.isEmpty, !components.contains(where: \.isEmpty) else { return nil }
        self.components = components
    }

    public init(stringLiteral value: String) {
        self.components = value.split(separator: ".").map(String.init)
    }

    public var description: String { components.joined(separator: ".") }

    /// The value at this path, or nil.
    public func value(in object: JSONObject) -> JSONValue? {
        Self.lookup(components[...], in: object)
    }

    private static func lookup(_ rest: ArraySlice<String>, in object: JSONObject) -> JSONValue? {
        var end = rest.endIndex
        while end > rest.startIndex {
            let key = rest[rest.startIndex..<end].joined(separator: ".")
            if let value = object[key] {
                if end == rest.endIndex { return value }
                if case .object(let child) = value, let found = lookup(rest[end...], in: child) {
                    return found
                }
            }
            end -= 1
        }
        return nil
    }
}
