/// A dotted path into a payload, such as `fcm_options.image` or `aps.alert.image`.
///
/// Some SDKs use dots inside their keys (`com.urbanairship.media_attachment`), so a path is matched
/// against the keys that exist: at each level the longest run of components naming a key wins.
public struct PayloadKeyPath: Sendable, Hashable, CustomStringConvertible,
    ExpressibleByStringLiteral
{
    public let components: [String]
    /// `runs[i][n - 1]` is `components[i..<i + n]` joined by dots: every key a lookup may try, made once.
    private let runs: [[String]]

    public init?(parsing text: String) {
        let components = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard !text.isEmpty, !components.contains(where: \.isEmpty) else { return nil }
        self.init(components: components)
    }

    public init(stringLiteral value: String) {
        self.init(components: value.split(separator: ".").map(String.init))
    }

    private init(components: [String]) {
        self.components = components
        runs = components.indices.map { start in
            (start..<components.count).map { end in components[start...end].joined(separator: ".") }
        }
    }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.components == rhs.components }
    public func hash(into hasher: inout Hasher) { hasher.combine(components) }

    public var description: String { components.joined(separator: ".") }

    /// The value at this path, or nil.
    public func value(in object: JSONObject) -> JSONValue? {
        lookup(from: 0, in: object)
    }

    private func lookup(from start: Int, in object: JSONObject) -> JSONValue? {
        var end = components.count
        while end > start {
            if let value = object[runs[start][end - start - 1]] {
                if end == components.count { return value }
                if case .object(let child) = value, let found = lookup(from: end, in: child) {
                    return found
                }
            }
            end -= 1
        }
        return nil
    }
}
