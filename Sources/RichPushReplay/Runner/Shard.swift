/// `--shard I/N`: one of N stable parts of a corpus, so a CI matrix spreads a large corpus over runners.
///
/// The payloads, sorted by path, are dealt out in turn: the first to shard 1, the second to shard 2, …, the
/// N+1st to shard 1 again. Every payload is in exactly one shard, the shards differ in size by at most one, and
/// every runner that sees the same files computes the same split.
public struct Shard: Sendable, Equatable, CustomStringConvertible {
    /// 1-based, as people count runners.
    public let index: Int
    public let count: Int

    public init?(index: Int, count: Int) {
        guard count >= 1, (1...count).contains(index) else { return nil }
        self.index = index
        self.count = count
    }

    /// `2/4`; nil for anything else.
    public init?(parsing text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) }),
            let index = Int(parts[0]), let count = Int(parts[1])
        else { return nil }
        self.init(index: index, count: count)
    }

    public var description: String { "\(index)/\(count)" }

    /// The elements of this shard, from a list already in path order.
    public func select<Element>(_ sorted: [Element]) -> [Element] {
        sorted.enumerated().filter { $0.offset % count == index - 1 }.map(\.element)
    }
}
