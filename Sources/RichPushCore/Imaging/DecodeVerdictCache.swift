import Synchronization

/// Verdicts of attachments already decoded, by content (SHA-256 and format): a corpus that sends one picture
/// to many payloads decodes it once, and every payload still gets the verdict of exactly its own bytes.
///
/// Payloads that bring the same bytes at the same time wait for the one decode in flight instead of starting
/// their own. A verdict depends on the bytes and the decoder alone (its budget is fixed), so a cache belongs to
/// one decoder. At most `capacity` verdicts are kept; when full, the finished ones are dropped and the cache
/// fills again, so memory stays flat over any corpus.
public final class DecodeVerdictCache: Sendable {
    /// What identifies an image's verdict.
    public struct Key: Hashable, Sendable {
        public var sha256: String
        public var format: ImageFormat

        public init(sha256: String, format: ImageFormat) {
            self.sha256 = sha256
            self.format = format
        }
    }

    /// A verdict, and whether it came from an earlier decode of the same bytes.
    public struct Lookup: Sendable, Equatable {
        public var verdict: DecodeVerdict
        public var reused: Bool

        public init(verdict: DecodeVerdict, reused: Bool) {
            self.verdict = verdict
            self.reused = reused
        }
    }

    private struct State {
        var entries: [Key: Task<DecodeVerdict, Never>] = [:]
        var finished: Set<Key> = []
    }

    public let capacity: Int
    private let state = Mutex(State())

    public init(capacity: Int = 4096) {
        self.capacity = max(1, capacity)
    }

    /// The verdict for `key`: the one already known or in flight, else the one `decode` gives (run once).
    public func verdict(for key: Key, decode: @escaping @Sendable () async -> DecodeVerdict) async -> Lookup {
        let (task, reused) = state.withLock { state -> (Task<DecodeVerdict, Never>, Bool) in
            if let task = state.entries[key] { return (task, true) }
            if state.entries.count >= capacity {
                for finished in state.finished { state.entries[finished] = nil }
                state.finished.removeAll(keepingCapacity: true)
            }
            let task = Task { await decode() }
            state.entries[key] = task
            return (task, false)
        }
        let verdict = await task.value
        if !reused { _ = state.withLock { $0.finished.insert(key) } }
        return Lookup(verdict: verdict, reused: reused)
    }

    /// How many verdicts are kept or in flight.
    public var count: Int { state.withLock { $0.entries.count } }
}
