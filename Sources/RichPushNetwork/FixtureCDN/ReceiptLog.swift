public import Foundation
import Synchronization

/// What the fixture CDN received at `POST /receipts`, newest last, so tests and `replay --verbose` can see that a
/// display receipt arrived and what it said.
public final class ReceiptLog: Sendable {
    /// One receipt as the server received it.
    public struct Entry: Sendable, Equatable {
        public var method: String
        /// The request target, path and query, as sent.
        public var target: String
        /// Header names (lowercased) and values, in the order received.
        public var headers: [(name: String, value: String)]
        /// The body bytes.
        public var body: [UInt8]
        /// When the request had been read.
        public var receivedAt: Date

        public init(
            method: String, target: String, headers: [(name: String, value: String)], body: [UInt8], receivedAt: Date
        ) {
            self.method = method
            self.target = target
            self.headers = headers
            self.body = body
            self.receivedAt = receivedAt
        }

        /// The first value of a header, by case-insensitive name.
        public func header(_ name: String) -> String? {
            headers.first { $0.name == name.lowercased() }?.value
        }

        /// The body as UTF-8 text (invalid bytes replaced).
        public var bodyText: String { String(decoding: body, as: UTF8.self) }

        public static func == (lhs: Entry, rhs: Entry) -> Bool {
            lhs.method == rhs.method && lhs.target == rhs.target && lhs.body == rhs.body
                && lhs.receivedAt == rhs.receivedAt && lhs.headers.map(\.name) == rhs.headers.map(\.name)
                && lhs.headers.map(\.value) == rhs.headers.map(\.value)
        }
    }

    /// Entries kept; older ones are dropped first.
    public let capacity: Int
    private let entries = Mutex<[Entry]>([])

    public init(capacity: Int = 1_000) {
        self.capacity = max(1, capacity)
    }

    /// Every receipt kept, oldest first.
    public var all: [Entry] { entries.withLock { $0 } }

    /// Records a receipt (the fixture CDN does; another server, such as `serve`, may keep its own log).
    public func append(_ entry: Entry) {
        entries.withLock { entries in
            entries.append(entry)
            if entries.count > capacity { entries.removeFirst(entries.count - capacity) }
        }
    }

    /// Forgets every receipt.
    public func removeAll() {
        entries.withLock { $0.removeAll() }
    }
}
