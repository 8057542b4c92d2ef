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

    /// The push id a form-encoded body (`push_id=<id>`) reports; nil when it has none.
    public static func pushID(inFormBody body: [UInt8]) -> String? {
        let text = String(decoding: body, as: UTF8.self)
        for pair in text.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard formDecode(parts[0]) == "push_id" else { continue }
            return parts.count > 1 ? formDecode(parts[1]) : ""
        }
        return nil
    }

    /// `application/x-www-form-urlencoded` decoding: `+` is a space, `%XX` a byte; bad escapes stay as they are.
    static func formDecode(_ text: Substring) -> String {
        var bytes: [UInt8] = []
        let utf8 = Array(text.utf8)
        var index = 0
        while index < utf8.count {
            let byte = utf8[index]
            if byte == UInt8(ascii: "+") {
                bytes.append(UInt8(ascii: " "))
            } else if byte == UInt8(ascii: "%"), index + 2 < utf8.count,
                let value = UInt8(String(decoding: utf8[(index + 1)...(index + 2)], as: UTF8.self), radix: 16)
            {
                bytes.append(value)
                index += 2
            } else {
                bytes.append(byte)
            }
            index += 1
        }
        return String(decoding: bytes, as: UTF8.self)
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
