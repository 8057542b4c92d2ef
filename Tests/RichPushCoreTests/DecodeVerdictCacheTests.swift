import Foundation
import RichPushCore
import Synchronization
import Testing

/// A decode the test releases by hand, counting how often it was started.
final class GatedDecode: Sendable {
    private let state = Mutex<(calls: Int, waiters: [CheckedContinuation<Void, Never>], open: Bool)>(
        (0, [], false))
    let verdict: DecodeVerdict

    init(_ verdict: DecodeVerdict) { self.verdict = verdict }

    var calls: Int { state.withLock { $0.calls } }

    func run() async -> DecodeVerdict {
        await withCheckedContinuation { continuation in
            let resume = state.withLock { state -> Bool in
                state.calls += 1
                if state.open { return true }
                state.waiters.append(continuation)
                return false
            }
            if resume { continuation.resume() }
        }
        return verdict
    }

    func open() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.open = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}

@Suite("DecodeVerdictCache: one decode per distinct image")
struct DecodeVerdictCacheTests {
    static let cat = DecodeVerdictCache.Key(sha256: String(repeating: "ab", count: 32), format: .png)

    @Test("the same bytes are decoded once; other bytes or another format are decoded on their own")
    func sameBytesOnce() async {
        let cache = DecodeVerdictCache()
        let good = GatedDecode(.decoded)
        good.open()
        let first = await cache.verdict(for: Self.cat) { await good.run() }
        let second = await cache.verdict(for: Self.cat) { await good.run() }
        #expect(first == .init(verdict: .decoded, reused: false))
        #expect(second == .init(verdict: .decoded, reused: true))
        #expect(good.calls == 1)

        let broken = GatedDecode(.notDecoded("the PNG data ends early"))
        broken.open()
        let other = DecodeVerdictCache.Key(sha256: String(repeating: "cd", count: 32), format: .png)
        let third = await cache.verdict(for: other) { await broken.run() }
        #expect(third == .init(verdict: .notDecoded("the PNG data ends early"), reused: false))
        let asGIF = DecodeVerdictCache.Key(sha256: Self.cat.sha256, format: .gif)
        let fourth = await cache.verdict(for: asGIF) { await broken.run() }
        #expect(fourth.reused == false)
        #expect(broken.calls == 2)
    }

    @Test("payloads that bring the same bytes at once wait for the one decode in flight")
    func concurrentLookupsShareOneDecode() async {
        let cache = DecodeVerdictCache()
        let decode = GatedDecode(.decoded)
        // Task.immediate runs each lookup at once up to its first suspension: when the loop ends, all 20 have
        // asked, while the one decode is held shut, so none of them can have found a finished verdict.
        let tasks = (0..<20).map { _ in
            Task.immediate { await cache.verdict(for: Self.cat) { await decode.run() } }
        }
        while decode.calls == 0 { await Task.yield() }
        decode.open()
        var lookups: [DecodeVerdictCache.Lookup] = []
        for task in tasks { lookups.append(await task.value) }
        #expect(decode.calls == 1)
        #expect(lookups.count == 20)
        #expect(lookups.allSatisfy { $0.verdict == .decoded })
        #expect(lookups.filter { !$0.reused }.count == 1)
    }

    @Test("memory stays flat: past its capacity the finished verdicts are dropped and decoded again when asked")
    func bounded() async {
        let cache = DecodeVerdictCache(capacity: 8)
        let decode = GatedDecode(.decoded)
        decode.open()
        for index in 0..<100 {
            let key = DecodeVerdictCache.Key(sha256: String(format: "%064x", index), format: .png)
            _ = await cache.verdict(for: key) { await decode.run() }
            #expect(cache.count <= 8)
        }
        #expect(decode.calls == 100)
        // It does keep verdicts: the latest one is reused, not decoded again.
        let latest = DecodeVerdictCache.Key(sha256: String(format: "%064x", 99), format: .png)
        #expect(await cache.verdict(for: latest) { await decode.run() }.reused)
        #expect(decode.calls == 100)
        let first = DecodeVerdictCache.Key(sha256: String(format: "%064x", 0), format: .png)
        let again = await cache.verdict(for: first) { await decode.run() }
        #expect(again.reused == false, "long dropped, so decoded again")
        #expect(decode.calls == 101)
    }
}
