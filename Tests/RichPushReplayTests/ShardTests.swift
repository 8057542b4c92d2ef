import RichPushReplay
import Testing

@Suite struct ShardTests {
    @Test func everyPayloadIsInExactlyOneShard() throws {
        let corpus = (0..<1_003).map { "payloads/\($0).json" }.sorted()
        for count in [1, 2, 3, 7, 16] {
            let shards = try (1...count).map { try #require(Shard(index: $0, count: count)).select(corpus) }
            let all = shards.flatMap { $0 }
            #expect(all.count == corpus.count, "no payload twice, none left out (\(count) shards)")
            #expect(Set(all) == Set(corpus))
            let sizes = shards.map(\.count)
            #expect((sizes.max() ?? 0) - (sizes.min() ?? 0) <= 1, "balanced: \(sizes)")
        }
    }

    @Test func theSplitIsTheSameOnEveryRunner() throws {
        let corpus = ["a.json", "b.json", "c.json", "d.json", "e.json"]
        let shard = try #require(Shard(parsing: "2/2"))
        #expect(shard.select(corpus) == ["b.json", "d.json"])
        #expect(shard.select(corpus) == shard.select(corpus))
    }

    @Test(arguments: ["0/2", "3/2", "1/0", "a/2", "1/", "/2", "1/2/3", "-1/2", "１/２", ""])
    func badShardsAreRefused(text: String) {
        #expect(Shard(parsing: text) == nil)
    }
}
