/// A dotted path to a value in a payload: `fcm_options.image`, `com.urbanairship.media_attachment.url`.
///
/// Keys may contain dots themselves (`com.urbanairship.media_attachment`, `com.batch`), so a lookup tries the
/// longest run of components as one key first, then shorter ones, at every level.
public struct PayloadKeyPath: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral {
    public let components: [String]
    /// `runs[i][n - 1]` is `components[i..<i + n]` joined by dots: every key a lookup may try, made once.
    private let runs: [[String]]

    /// Nil for an empty path or one with an empty component (`a..b`, `.a`).
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

    /// This path followed by `key` (which may itself hold dots).
    public func appending(_ key: String) -> PayloadKeyPath {
        PayloadKeyPath(components: components + [key])
    }

    /// The value at this path in `root` (an object), or nil.
    public func value<Node: PayloadNode>(in root: Node) -> Node? {
        lookup(from: 0, in: root)
    }

    private func lookup<Node: PayloadNode>(from start: Int, in object: Node) -> Node? {
        var end = components.count
        while end > start {
            if let value = object.member(runs[start][end - start - 1]) {
                if end == components.count { return value }
                if value.isObject, let found = lookup(from: end, in: value) { return found }
            }
            end -= 1
        }
        return nil
    }
}
