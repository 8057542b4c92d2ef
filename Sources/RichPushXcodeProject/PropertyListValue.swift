import Foundation
import RichPushFiles

/// A property list as a value: what an Xcode project file, an Info.plist or an xcconfig-free settings dictionary
/// holds. Numbers and booleans are kept as the strings the OpenStep format writes them as (`1`, `YES`), since the
/// project reader only compares and expands them.
enum PropertyListValue: Sendable, Equatable {
    case string(String)
    case array([PropertyListValue])
    case dictionary([String: PropertyListValue])
    case data([UInt8])

    var string: String? {
        if case .string(let value) = self { value } else { nil }
    }

    var array: [PropertyListValue]? {
        if case .array(let value) = self { value } else { nil }
    }

    var dictionary: [String: PropertyListValue]? {
        if case .dictionary(let value) = self { value } else { nil }
    }

    /// The strings of an array (other elements skipped), or a lone string as one element.
    var strings: [String] {
        switch self {
        case .string(let value): [value]
        case .array(let values): values.compactMap(\.string)
        default: []
        }
    }

    subscript(key: String) -> PropertyListValue? { dictionary?[key] }

    /// A value Foundation's `PropertyListSerialization` returned (an XML or binary Info.plist), at most `depth` deep;
    /// nil for a type a property list cannot hold.
    init?(foundation object: Any, depth: Int = 32) {
        guard depth > 0 else { return nil }
        switch object {
        case let text as String:
            self = .string(text)
        case let number as NSNumber:
            // Booleans too (`1`, `0`): the reader compares no boolean of an Info.plist.
            self = .string(number.stringValue)
        case let bytes as Data:
            self = .data(Array(bytes))
        case let date as Date:
            self = .string(ISO8601DateFormatter().string(from: date))
        case let list as [Any]:
            var values: [PropertyListValue] = []
            for element in list {
                guard let value = PropertyListValue(foundation: element, depth: depth - 1) else { return nil }
                values.append(value)
            }
            self = .array(values)
        case let table as [String: Any]:
            var values: [String: PropertyListValue] = [:]
            for (key, element) in table {
                guard let value = PropertyListValue(foundation: element, depth: depth - 1) else { return nil }
                values[key] = value
            }
            self = .dictionary(values)
        default:
            return nil
        }
    }

    /// A property list in any format Xcode reads: XML or binary (read by Foundation, which prints nothing for
    /// those) or OpenStep (read by ``OpenStepPropertyList``); the error says why in words, with a line for OpenStep.
    static func read(_ bytes: [UInt8]) -> Result<PropertyListValue, FileProblem> {
        var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while start < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[start]) { start += 1 }
        let xml =
            start + 1 < bytes.count && bytes[start] == UInt8(ascii: "<")
            && (bytes[start + 1] == UInt8(ascii: "?") || bytes[start + 1] == UInt8(ascii: "!")
                || bytes[start + 1] == UInt8(ascii: "p"))
        let binary = bytes.starts(with: Array("bplist".utf8))
        guard xml || binary else {
            do throws(OpenStepPropertyList.SyntaxError) {
                return .success(try OpenStepPropertyList.parse(bytes))
            } catch {
                return .failure(FileProblem(error.description))
            }
        }
        let object: Any
        do {
            object = try PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: nil)
        } catch {
            let reason = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "unreadable"
            return .failure(FileProblem((binary ? "binary: " : "XML: ") + reason.lowercased()))
        }
        guard let value = PropertyListValue(foundation: object) else {
            return .failure(FileProblem("a value no property list holds, or nested too deep"))
        }
        return .success(value)
    }
}
