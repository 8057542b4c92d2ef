import Foundation

/// A keychain attribute's value, compared as the keychain compares them: strings, bytes, numbers (booleans are 1 and
/// 0, so `true` and `kCFBooleanTrue` match) and dates.
enum KeychainValue: Hashable, Sendable {
    case string(String)
    case data(Data)
    case number(Double)
    case date(Date)

    /// The value of a query's or an attribute dictionary's entry; nil for what the keychain does not store (a
    /// `SecAccessControl`, a key object).
    init?(_ value: Any) {
        switch value {
        case let string as String: self = .string(string)
        case let data as Data: self = .data(data)
        case let bool as Bool: self = .number(bool ? 1 : 0)
        case let number as NSNumber: self = .number(number.doubleValue)
        case let int as Int: self = .number(Double(int))
        case let double as Double: self = .number(double)
        case let date as Date: self = .date(date)
        default: return nil
        }
    }

    /// As iOS hands it back in an attribute dictionary.
    var object: AnyObject {
        switch self {
        case .string(let string): string as NSString
        case .data(let data): data as NSData
        case .number(let number): NSNumber(value: number)
        case .date(let date): date as NSDate
        }
    }

    /// For messages: a string quoted, anything else described.
    var described: String {
        switch self {
        case .string(let string): "\"\(string)\""
        case .data(let data): String(data: data, encoding: .utf8).map { "\"\($0)\"" } ?? "\(data.count) bytes"
        case .number(let number): number == number.rounded() ? String(Int(number)) : String(number)
        case .date(let date): date.description
        }
    }

    /// A query's yes or no (`true`, `kCFBooleanTrue`, `1`).
    static func flag(_ value: Any?) -> Bool {
        switch value {
        case let bool as Bool: bool
        case let number as NSNumber: number.boolValue
        case let string as String: ["1", "true", "yes"].contains(string.lowercased())
        default: false
        }
    }
}
