import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// `os_log`'s printf formats: C's conversions with Apple's `{…}` annotations, one argument per conversion (and one
/// per `*`), formatted conversion by conversion so a wrong or missing argument never crashes the extension.
enum PrintfFormat {
    /// What Apple's log shows for a conversion without its argument.
    static let missing = "<decode: missing data>"

    static func format(_ format: String, _ arguments: [Any]) -> String {
        var output = ""
        var remaining = arguments[...]
        let characters = Array(format)
        var index = 0
        func next() -> Any? { remaining.popFirst() }

        while index < characters.count {
            let character = characters[index]
            index += 1
            guard character == "%", index < characters.count else {
                output.append(character)
                continue
            }
            if characters[index] == "%" {
                output.append("%")
                index += 1
                continue
            }
            // `{public}`, `{private, bool}`: privacy is ignored (values are shown), a few value types are kept.
            var annotations: [String] = []
            if characters[index] == "{", let close = characters[index...].firstIndex(of: "}") {
                annotations = String(characters[(index + 1)..<close]).split(separator: ",").map {
                    $0.trimmingCharacters(in: .whitespaces)
                }
                index = close + 1
            }
            var spec = "%"
            var flags = ""
            while index < characters.count, "-+ #0'".contains(characters[index]) {
                flags.append(characters[index])
                index += 1
            }
            spec += flags
            // A width or precision: `*` takes the next argument, else the digits written (nil without any).
            func number() -> Int? {
                if index < characters.count, characters[index] == "*" {
                    index += 1
                    return integer(next()).map { Int(truncatingIfNeeded: $0) }
                }
                var digits = ""
                while index < characters.count, characters[index].isASCII, characters[index].isNumber {
                    digits.append(characters[index])
                    index += 1
                }
                return Int(digits)
            }
            let width = number()
            var precision: Int?
            if index < characters.count, characters[index] == "." {
                index += 1
                // `.` with no digits is a precision of 0; `.*` without an argument is none.
                let fromArgument = index < characters.count && characters[index] == "*"
                precision = fromArgument ? number() : (number() ?? 0)
            }
            var length = ""
            while index < characters.count, "hlqLjzt".contains(characters[index]) {
                length.append(characters[index])
                index += 1
            }
            guard index < characters.count else {
                output += spec + length
                break
            }
            let conversion = characters[index]
            index += 1
            if conversion == "n" { continue }
            guard "@sSdiouxXcCfFeEgGaApP".contains(conversion) else {
                // Not a conversion: written as it was.
                output += spec + (width.map(String.init) ?? "") + (precision.map { ".\($0)" } ?? "") + length
                output.append(conversion)
                continue
            }
            guard let argument = next() else {
                output += missing
                continue
            }
            output += convert(
                argument, conversion: conversion, flags: flags, width: width, precision: precision,
                annotations: annotations)
        }
        return output
    }

    private static func convert(
        _ argument: Any, conversion: Character, flags: String, width: Int?, precision: Int?, annotations: [String]
    ) -> String {
        let widthText = width.map(String.init) ?? ""
        let precisionText = precision.map { ".\($0)" } ?? ""
        switch conversion {
        case "@", "s", "S":
            var text = string(argument)
            if let precision, conversion != "@" { text = String(text.prefix(precision)) }
            return pad(text, width: width, left: flags.contains("-"))
        case "d", "i", "o", "u", "x", "X", "c", "C":
            if annotations.contains("bool") { return pad(truth(argument) ? "true" : "false", width: width) }
            if annotations.contains("BOOL") { return pad(truth(argument) ? "YES" : "NO", width: width) }
            if annotations.contains("errno") || annotations.contains("darwin.errno"), let code = integer(argument) {
                return "[\(code): \(String(cString: strerror(Int32(truncatingIfNeeded: code))))]"
            }
            guard let value = integer(argument) else { return pad(string(argument), width: width) }
            if conversion == "c" || conversion == "C" {
                return String(format: "%" + flags + widthText + "c", Int32(truncatingIfNeeded: value))
            }
            return String(format: "%" + flags + widthText + precisionText + "ll" + String(conversion), value)
        case "f", "F", "e", "E", "g", "G", "a", "A":
            guard let value = double(argument) else { return pad(string(argument), width: width) }
            return String(format: "%" + flags + widthText + precisionText + String(conversion), value)
        default:  // p, P
            if let pointer = argument as? CVarArg {
                return String(format: "%" + flags + widthText + "p", pointer)
            }
            return pad(string(argument), width: width, left: flags.contains("-"))
        }
    }

    /// `%@` and `%s`: a string as it is, a C string's text, an object's description, `(null)` for nil.
    private static func string(_ argument: Any) -> String {
        if let optional = argument as? any OptionalProtocol, optional.isNone { return "(null)" }
        switch argument {
        case let text as String: return text
        case let text as Substring: return String(text)
        case let pointer as UnsafePointer<CChar>: return String(cString: pointer)
        case let pointer as UnsafeMutablePointer<CChar>: return String(cString: pointer)
        case let pointer as UnsafePointer<UInt8>: return String(cString: pointer)
        case let pointer as UnsafeMutablePointer<UInt8>: return String(cString: pointer)
        case let object as NSObject: return object.description
        default: return String(describing: argument)
        }
    }

    private static func integer(_ argument: Any?) -> Int64? {
        switch argument {
        case let value as any BinaryInteger: Int64(truncatingIfNeeded: value)
        case let value as Bool: value ? 1 : 0
        case let value as NSNumber: value.int64Value
        case let value as any BinaryFloatingPoint: Int64(exactly: Double(value).rounded(.towardZero))
        default: nil
        }
    }

    private static func double(_ argument: Any) -> Double? {
        switch argument {
        case let value as Double: value
        case let value as Float: Double(value)
        case let value as CGFloat: Double(value)
        case let value as any BinaryInteger: Double(value)
        case let value as NSNumber: value.doubleValue
        default: nil
        }
    }

    private static func truth(_ argument: Any) -> Bool { (integer(argument) ?? 0) != 0 }

    private static func pad(_ text: String, width: Int?, left: Bool = false) -> String {
        guard let width, text.count < abs(width) else { return text }
        let padding = String(repeating: " ", count: abs(width) - text.count)
        return left || width < 0 ? text + padding : padding + text
    }
}

/// Lets `%@` write `(null)` for a nil passed in an `Any`.
private protocol OptionalProtocol {
    var isNone: Bool { get }
}

extension Optional: OptionalProtocol {
    var isNone: Bool { self == nil }
}
