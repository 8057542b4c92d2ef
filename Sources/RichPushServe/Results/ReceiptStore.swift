import Foundation
public import RichPushCore
public import RichPushNetwork
import Synchronization

/// The display receipts `serve` received at `POST /richpush/v1/receipts`: the newest `capacity` of them, oldest
/// first, so a backend test can assert that the phone reported the display. Older ones are dropped and counted.
public final class ReceiptStore: Sendable {
    /// What `GET /richpush/v1/receipts` answers.
    public struct Snapshot: Sendable {
        public var receipts: [ReceiptLog.Entry]
        public var capacity: Int
        /// Receipts received since start (or the last clear), kept or dropped.
        public var total: Int
        /// Receipts dropped to stay within the capacity.
        public var dropped: Int

        public var jsonValue: JSONValue {
            [
                "capacity": .number(Double(capacity)), "total": .number(Double(total)),
                "dropped": .number(Double(dropped)),
                "receipts": .array(receipts.map(ReceiptStore.jsonValue(of:))),
            ]
        }
    }

    public static let defaultCapacity = 10_000
    public let capacity: Int
    private let log: ReceiptLog
    /// Receipts recorded since start or the last clear; the log is changed under this lock too, so both agree.
    private let total = Mutex(0)

    public init(capacity: Int = ReceiptStore.defaultCapacity) {
        precondition(capacity > 0)
        self.capacity = capacity
        log = ReceiptLog(capacity: capacity)
    }

    /// Records a receipt as received.
    public func record(_ entry: ReceiptLog.Entry) {
        total.withLock { total in
            total += 1
            log.append(entry)
        }
    }

    public func snapshot() -> Snapshot {
        total.withLock { total in
            let receipts = log.all
            return Snapshot(receipts: receipts, capacity: capacity, total: total, dropped: total - receipts.count)
        }
    }

    /// Forgets every receipt.
    public func removeAll() {
        total.withLock { total in
            total = 0
            log.removeAll()
        }
    }

    /// The push id a form-encoded body (`push_id=<id>`) reports; nil when it has none. Decoded as a web server
    /// would: `+` is a space, and a bad escape stays as written.
    public static func pushID(inFormBody body: [UInt8]) -> String? {
        let field = FormEncoding.fields(in: String(decoding: body, as: UTF8.self)).first {
            FormEncoding.decodeLeniently($0.rawName, plus: .space) == "push_id"
        }
        return field.map { FormEncoding.decodeLeniently($0.rawValue, plus: .space) }
    }

    /// One receipt in the inspection API: method, target, headers, body, the decoded push id and the time received.
    static func jsonValue(of entry: ReceiptLog.Entry) -> JSONValue {
        var headers: JSONObject = [:]
        for (name, value) in entry.headers where headers[name] == nil {
            headers[name] = .string(value)
        }
        let pushID = pushID(inFormBody: entry.body)
        return [
            "method": .string(entry.method), "target": .string(entry.target), "headers": .object(headers),
            "body": .string(entry.bodyText), "pushID": pushID.map(JSONValue.string) ?? .null,
            "receivedAt": .string(entry.receivedAt.formatted(.iso8601)),
        ]
    }
}
