public import RichPushCore
import Synchronization

/// The results the inspection API shows: the newest `capacity` of them, oldest first, so memory stays bounded
/// however many pushes arrive. Older results are dropped and counted.
///
/// Each result is kept as what the API returns for it, its compact JSON text (about 1.1 KB for a push without an
/// image), compressed (``DeflatedText``, about a third of that), not as the delivery's values, which took about
/// 2.7 KB each.
public final class ResultStore: Sendable {
    /// What `GET /richpush/v1/notifications` answers.
    public struct Snapshot: Sendable {
        /// Each kept result's JSON text, oldest first.
        public var entries: [[UInt8]] {
            let decompressor = DeflatedText.Decompressor()
            return kept.map { $0.text(decompressor) }
        }
        let kept: [DeflatedText]
        public var capacity: Int
        /// Results recorded since start (or the last clear), kept or dropped.
        public var total: Int
        /// Results dropped to stay within the capacity.
        public var dropped: Int
        /// Accepted pushes still being delivered (their extension may be downloading).
        public var inFlight: Int

        /// The kept results, parsed.
        public var notifications: [JSONValue] { entries.compactMap { try? JSONParser.parse($0) } }

        /// The answer's JSON text: `{"capacity", "total", "dropped", "inFlight", "notifications": [...]}`, the
        /// results written as they were kept.
        public var json: [UInt8] { Array(jsonChunks(of: .max).joined()) }

        /// The answer's JSON text in pieces of about `size` bytes, each made (results decompressed) only when it is
        /// reached, so answering never holds the whole document (10,000 results are about 11 MB of text).
        public func jsonChunks(of size: Int) -> some Sequence<[UInt8]> & Sendable {
            let head: JSONValue = [
                "capacity": .number(Double(capacity)), "total": .number(Double(total)),
                "dropped": .number(Double(dropped)), "inFlight": .number(Double(inFlight)), "notifications": [],
            ]
            let kept = self.kept
            let opening = Array(JSONWriter.string(head).utf8.dropLast(2))
            return JSONChunks(opening: opening, kept: kept, size: size)
        }
    }

    /// ``Snapshot/jsonChunks(of:)``: the opening, the results separated by commas, the closing `]}`.
    struct JSONChunks: Sequence, Sendable {
        let opening: [UInt8]
        let kept: [DeflatedText]
        let size: Int

        func makeIterator() -> AnyIterator<[UInt8]> {
            let decompressor = DeflatedText.Decompressor()
            var next = 0
            var finished = false
            var pending = opening
            return AnyIterator {
                guard !finished else { return nil }
                while next < kept.count, pending.count < size {
                    if next > 0 { pending.append(UInt8(ascii: ",")) }
                    pending += kept[next].text(decompressor)
                    next += 1
                }
                if next == kept.count {
                    pending += Array("]}".utf8)
                    finished = true
                }
                defer { pending = [] }
                return pending
            }
        }
    }

    private struct State {
        /// A ring: `entries[start]` is the oldest once full.
        var entries: [DeflatedText] = []
        let compressor = DeflatedText.Compressor()
        var start = 0
        var total = 0
        var inFlight = 0
    }

    public static let defaultCapacity = 10_000
    public let capacity: Int
    private let state = Mutex(State())

    public init(capacity: Int = ResultStore.defaultCapacity) {
        precondition(capacity > 0)
        self.capacity = capacity
    }

    /// Records a push that was accepted and is being delivered.
    func beginDelivery() {
        state.withLock { $0.inFlight += 1 }
    }

    /// A push begun with ``beginDelivery()`` that will never be delivered (the server is stopping).
    func abandonDelivery() {
        state.withLock { $0.inFlight -= 1 }
    }

    /// Records a result and numbers it; `delivered` ends an in-flight delivery begun with ``beginDelivery()``.
    ///
    /// Writing the JSON text is most of the work, and every delivery records: it is written before the lock is
    /// taken, and under the lock only its last member, the sequence number, is added (then the text is compressed
    /// with the store's compressor). Written under the lock, concurrent deliveries waited on each other there.
    @discardableResult
    func record(_ notification: ServedNotification, endingDelivery: Bool) -> ServedNotification {
        // `{…,"status":S}` without its closing brace; `,"sequence":N}` follows under the lock.
        let opening: [UInt8]? =
            if case .object = notification.jsonValueBeforeSequence {
                Array(JSONWriter.string(notification.jsonValueBeforeSequence).utf8.dropLast())
            } else { nil }
        return state.withLock { state in
            var numbered = notification
            state.total += 1
            numbered.sequence = state.total
            if endingDelivery { state.inFlight -= 1 }
            let json =
                opening.map { $0 + Self.sequenceMember(state.total) }
                ?? Array(JSONWriter.string(numbered.jsonValue).utf8)
            let text = DeflatedText(json, compressor: state.compressor)
            if state.entries.count < capacity {
                state.entries.append(text)
            } else {
                state.entries[state.start] = text
                state.start = (state.start + 1) % capacity
            }
            return numbered
        }
    }

    /// `,"sequence":N}`, in JSONWriter's words for the key and the number.
    private static func sequenceMember(_ sequence: Int) -> [UInt8] {
        Array(
            ("," + JSONWriter.string(.string("sequence")) + ":" + JSONWriter.string(.number(Double(sequence))) + "}")
                .utf8)
    }

    public func snapshot() -> Snapshot {
        state.withLock { state in
            let ordered = Array(state.entries[state.start...] + state.entries[..<state.start])
            return Snapshot(
                kept: ordered, capacity: capacity, total: state.total,
                dropped: state.total - state.entries.count, inFlight: state.inFlight)
        }
    }

    /// Forgets every result (deliveries in flight are still recorded when they finish).
    public func removeAll() {
        state.withLock { state in
            state.entries.removeAll(keepingCapacity: false)
            state.start = 0
            state.total = 0
        }
    }
}
