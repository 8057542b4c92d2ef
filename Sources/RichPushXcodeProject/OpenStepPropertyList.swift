/// A strict parser of the OpenStep ("old-style ASCII") property list format that `project.pbxproj` is written in:
/// `{ key = value; }`, `( a, b, )`, quoted and bare strings, `<hex data>`, and `//` and `/* */` comments.
///
/// Foundation's `PropertyListSerialization` reads the format on Linux too, but it prints its own diagnostics to the
/// standard error (which would land in richpush's output and the terminal UI), takes `bplist…` garbage for a bare
/// string, and reports errors as nested `NSError`s. This parser is small, bounded and says where it stopped:
/// nesting deeper than ``maxDepth`` and anything after the root are errors with the line, never a crash or a hang.
struct OpenStepPropertyList {
    /// Xcode writes projects 5 levels deep (root, objects, object, buildSettings, a list); 64 leaves room for
    /// hand-written files and stops a hostile one long before the stack would.
    static let maxDepth = 64

    /// Why a file is not a property list, and on which line (1-based).
    struct SyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
        var line: Int
        var message: String
        var description: String { "line \(line): \(message)" }
    }

    private let bytes: [UInt8]
    private var index = 0
    private var line = 1

    private init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The root value of `bytes` (UTF-8, an optional byte order mark), which must be the whole file.
    static func parse(_ bytes: [UInt8]) throws(SyntaxError) -> PropertyListValue {
        var parser = OpenStepPropertyList(bytes)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.index = 3 }
        try parser.skipSpace()
        guard parser.index < bytes.count else { throw SyntaxError(line: parser.line, message: "the file is empty") }
        let root = try parser.value(depth: 1)
        try parser.skipSpace()
        guard parser.index == bytes.count else {
            throw SyntaxError(line: parser.line, message: "\(parser.describeHere()) after the end of the root value")
        }
        return root
    }

    // MARK: Values

    private mutating func value(depth: Int) throws(SyntaxError) -> PropertyListValue {
        guard depth <= Self.maxDepth else {
            throw SyntaxError(line: line, message: "values nested more than \(Self.maxDepth) levels deep")
        }
        try skipSpace()
        guard index < bytes.count else {
            throw SyntaxError(line: line, message: "the file ends where a value should be")
        }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try dictionary(depth: depth)
        case UInt8(ascii: "("): return try array(depth: depth)
        case UInt8(ascii: "<"): return try data()
        case UInt8(ascii: "\""), UInt8(ascii: "'"): return .string(try quoted())
        default:
            guard let bare = bareString() else {
                throw SyntaxError(line: line, message: "\(describeHere()) where a value should be")
            }
            return .string(bare)
        }
    }

    private mutating func dictionary(depth: Int) throws(SyntaxError) -> PropertyListValue {
        let opened = line
        index += 1
        var entries: [String: PropertyListValue] = [:]
        while true {
            try skipSpace()
            guard index < bytes.count else {
                throw SyntaxError(line: line, message: "the file ends inside the dictionary opened on line \(opened)")
            }
            if bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .dictionary(entries)
            }
            let key: String
            if bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") {
                key = try quoted()
            } else if let bare = bareString() {
                key = bare
            } else {
                throw SyntaxError(line: line, message: "\(describeHere()) where a dictionary key should be")
            }
            try expect("=", after: "the key \(Self.quote(key))")
            let entry = try value(depth: depth + 1)
            try expect(";", after: "the value of \(Self.quote(key))")
            // The last of two equal keys wins, as in Xcode and Foundation (a merge can leave an object twice).
            entries[key] = entry
        }
    }

    private mutating func array(depth: Int) throws(SyntaxError) -> PropertyListValue {
        let opened = line
        index += 1
        var elements: [PropertyListValue] = []
        while true {
            try skipSpace()
            guard index < bytes.count else {
                throw SyntaxError(line: line, message: "the file ends inside the list opened on line \(opened)")
            }
            if bytes[index] == UInt8(ascii: ")") {
                index += 1
                return .array(elements)
            }
            elements.append(try value(depth: depth + 1))
            try skipSpace()
            guard index < bytes.count else {
                throw SyntaxError(line: line, message: "the file ends inside the list opened on line \(opened)")
            }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
            } else if bytes[index] != UInt8(ascii: ")") {
                throw SyntaxError(line: line, message: "\(describeHere()) where ',' or ')' should be in a list")
            }
        }
    }

    private mutating func data() throws(SyntaxError) -> PropertyListValue {
        let opened = line
        index += 1
        var result: [UInt8] = []
        var high: UInt8?
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if byte == UInt8(ascii: ">") {
                guard high == nil else { throw SyntaxError(line: line, message: "an odd number of hex digits in data") }
                return .data(result)
            }
            if byte == UInt8(ascii: "\n") { line += 1 }
            if Self.isSpace(byte) { continue }
            guard let nibble = Self.hexValue(byte) else {
                throw SyntaxError(line: line, message: "\(Self.describe(byte)) inside <data>")
            }
            if let first = high {
                result.append(first << 4 | nibble)
                high = nil
            } else {
                high = nibble
            }
        }
        throw SyntaxError(line: line, message: "the file ends inside the data opened on line \(opened)")
    }

    /// A quoted string with the format's escapes (`\n`, `\"`, `\\`, `\U00e9`, octal), decoded as UTF-8.
    private mutating func quoted() throws(SyntaxError) -> String {
        let quote = bytes[index]
        let opened = line
        index += 1
        var result: [UInt8] = []
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if byte == quote {
                guard let text = String(validating: result, as: UTF8.self) else {
                    throw SyntaxError(line: opened, message: "a string that is not valid UTF-8")
                }
                return text
            }
            if byte == UInt8(ascii: "\n") { line += 1 }
            guard byte == UInt8(ascii: "\\") else {
                result.append(byte)
                continue
            }
            guard index < bytes.count else { break }
            let escaped = bytes[index]
            index += 1
            switch escaped {
            case UInt8(ascii: "n"): result.append(0x0A)
            case UInt8(ascii: "t"): result.append(0x09)
            case UInt8(ascii: "r"): result.append(0x0D)
            case UInt8(ascii: "a"): result.append(0x07)
            case UInt8(ascii: "b"): result.append(0x08)
            case UInt8(ascii: "f"): result.append(0x0C)
            case UInt8(ascii: "v"): result.append(0x0B)
            case UInt8(ascii: "U"), UInt8(ascii: "u"):
                var code = unicodeEscape()
                // A UTF-16 surrogate pair is written as two escapes.
                if (0xD800..<0xDC00).contains(code), index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
                    bytes[index + 1] == UInt8(ascii: "U") || bytes[index + 1] == UInt8(ascii: "u")
                {
                    let saved = index
                    index += 2
                    let low = unicodeEscape()
                    if (0xDC00..<0xE000).contains(low) {
                        code = 0x10000 + (code - 0xD800) << 10 + (low - 0xDC00)
                    } else {
                        index = saved
                    }
                }
                let scalar = Unicode.Scalar(code) ?? "\u{FFFD}"
                result.append(contentsOf: Array(String(Character(scalar)).utf8))
            case UInt8(ascii: "0")...UInt8(ascii: "7"):
                var code = UInt32(escaped - UInt8(ascii: "0"))
                var digits = 1
                while digits < 3, index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(bytes[index]) {
                    code = code << 3 | UInt32(bytes[index] - UInt8(ascii: "0"))
                    index += 1
                    digits += 1
                }
                result.append(UInt8(truncatingIfNeeded: code))
            case UInt8(ascii: "\n"):
                line += 1
                result.append(escaped)
            default:
                result.append(escaped)
            }
        }
        throw SyntaxError(line: opened, message: "a string opened on line \(opened) is never closed")
    }

    /// The up to four hex digits after `\\U`.
    private mutating func unicodeEscape() -> UInt32 {
        var code: UInt32 = 0
        var digits = 0
        while digits < 4, index < bytes.count, let nibble = Self.hexValue(bytes[index]) {
            code = code << 4 | UInt32(nibble)
            index += 1
            digits += 1
        }
        return code
    }

    /// Letters, digits and `_$/:.-+` (what the format writes unquoted), or nil where none is.
    private mutating func bareString() -> String? {
        let start = index
        while index < bytes.count, Self.isBare(bytes[index]) {
            // A comment may follow a bare string without a space: `ID/* name */`.
            if bytes[index] == UInt8(ascii: "/"), index + 1 < bytes.count,
                bytes[index + 1] == UInt8(ascii: "/") || bytes[index + 1] == UInt8(ascii: "*")
            {
                break
            }
            index += 1
        }
        guard index > start else { return nil }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    // MARK: Space and punctuation

    private mutating func expect(_ character: Character, after what: String) throws(SyntaxError) {
        try skipSpace()
        guard index < bytes.count else {
            throw SyntaxError(line: line, message: "the file ends where '\(character)' should follow \(what)")
        }
        guard bytes[index] == character.asciiValue else {
            throw SyntaxError(line: line, message: "\(describeHere()) where '\(character)' should follow \(what)")
        }
        index += 1
    }

    /// Skips white space and comments; a `/*` comment that is never closed is an error.
    private mutating func skipSpace() throws(SyntaxError) {
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\n") {
                line += 1
                index += 1
            } else if Self.isSpace(byte) {
                index += 1
            } else if byte == UInt8(ascii: "/"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "/") {
                while index < bytes.count, bytes[index] != UInt8(ascii: "\n") { index += 1 }
            } else if byte == UInt8(ascii: "/"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "*") {
                let opened = line
                index += 2
                while true {
                    guard index + 1 < bytes.count else {
                        throw SyntaxError(line: opened, message: "a comment opened on line \(opened) is never closed")
                    }
                    if bytes[index] == UInt8(ascii: "*"), bytes[index + 1] == UInt8(ascii: "/") {
                        index += 2
                        break
                    }
                    if bytes[index] == UInt8(ascii: "\n") { line += 1 }
                    index += 1
                }
            } else {
                return
            }
        }
    }

    private func describeHere() -> String {
        index < bytes.count ? Self.describe(bytes[index]) : "the end of the file"
    }

    private static func describe(_ byte: UInt8) -> String {
        if byte >= 0x21, byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "the byte 0x" + String(byte, radix: 16, uppercase: true)
    }

    private static func quote(_ text: String) -> String {
        "\"" + String(text.prefix(60)) + (text.count > 60 ? "…" : "") + "\""
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0B || byte == 0x0C
    }

    private static func isBare(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        case UInt8(ascii: "_"), UInt8(ascii: "$"), UInt8(ascii: "/"), UInt8(ascii: ":"), UInt8(ascii: "."),
            UInt8(ascii: "-"), UInt8(ascii: "+"):
            true
        default: false
        }
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
