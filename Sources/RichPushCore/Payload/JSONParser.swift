/// A strict RFC 8259 JSON parser that reports where a document goes wrong by line and column.
///
/// Nothing is repaired: the text must be well-formed UTF-8 (APNs takes only UTF-8 JSON; nothing is replaced with
/// U+FFFD), an escaped UTF-16 surrogate must be half of a pair, a number must fit a `Double`, there are no trailing
/// commas, and nesting stops at ``maxDepth`` levels, so hostile input cannot exhaust the stack. Any value is taken
/// at the top level, a leading UTF-8 byte order mark is skipped, and the last of duplicate keys is kept.
public struct JSONParser {
    /// A syntax error, with a 1-based position in the document.
    public struct SyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
        public var message: String
        public var line: Int
        /// Counts characters, not bytes, as an editor does.
        public var column: Int
        /// The 1-based position of the offending byte in the file, as `cmp` counts bytes.
        public var byte: Int = 1

        public var description: String { "line \(line), column \(column): \(message)" }
    }

    /// The deepest nesting of arrays and objects accepted, the same limit as Foundation's.
    public static let maxDepth = 512

    private let bytes: [UInt8]
    private var index = 0
    private var depth = 0

    public static func parse(_ bytes: some Sequence<UInt8>) throws(SyntaxError) -> JSONValue {
        var parser = JSONParser(bytes: Array(bytes))
        return try parser.parseDocument()
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    private mutating func parseDocument() throws(SyntaxError) -> JSONValue {
        // JSON text starts with an ASCII character, so a zero among the first two bytes, or a UTF-16 byte
        // order mark, means UTF-16 or UTF-32.
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF])
            || (bytes.count >= 2 && (bytes[0] == 0 || bytes[1] == 0))
        {
            throw error("the file is UTF-16 or UTF-32, not UTF-8; APNs takes only UTF-8 JSON")
        }
        // A UTF-8 byte order mark is tolerated, as Xcode-written .apns files sometimes carry one.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        skipWhitespace()
        if index >= bytes.count { throw error("the file is empty") }
        let value = try parseValue()
        skipWhitespace()
        if index < bytes.count {
            throw unexpected("after the end of the document", separator: " ")
        }
        return value
    }

    private mutating func parseValue() throws(SyntaxError) -> JSONValue {
        guard index < bytes.count else { throw error("unexpected end of file, expected a value") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw unexpected("expected a value")
        }
    }

    private mutating func parseObject() throws(SyntaxError) -> JSONValue {
        try enter()
        index += 1
        var object = JSONObject()
        skipWhitespace()
        if peek(UInt8(ascii: "}")) {
            index += 1
            depth -= 1
            return .object(object)
        }
        while true {
            skipWhitespace()
            guard peek(UInt8(ascii: "\"")) else {
                throw unexpected("expected a key in double quotes")
            }
            let key = try parseString()
            skipWhitespace()
            guard peek(UInt8(ascii: ":")) else {
                throw unexpected("expected ':'")
            }
            index += 1
            skipWhitespace()
            // As in Foundation's decoder, the last of duplicate keys wins.
            object[key] = try parseValue()
            skipWhitespace()
            if peek(UInt8(ascii: ",")) {
                index += 1
                continue
            }
            if peek(UInt8(ascii: "}")) {
                index += 1
                depth -= 1
                return .object(object)
            }
            throw unexpected("expected ',' or '}'")
        }
    }

    private mutating func parseArray() throws(SyntaxError) -> JSONValue {
        try enter()
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if peek(UInt8(ascii: "]")) {
            index += 1
            depth -= 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue())
            skipWhitespace()
            if peek(UInt8(ascii: ",")) {
                index += 1
                continue
            }
            if peek(UInt8(ascii: "]")) {
                index += 1
                depth -= 1
                return .array(elements)
            }
            throw unexpected("expected ',' or ']'")
        }
    }

    private mutating func enter() throws(SyntaxError) {
        depth += 1
        if depth > Self.maxDepth { throw error("nesting deeper than \(Self.maxDepth) levels") }
    }

    private mutating func parseString() throws(SyntaxError) -> String {
        index += 1  // opening quote
        var scalars = String.UnicodeScalarView()
        // Unescaped text is copied in runs; every byte of a run has been checked to be well-formed UTF-8.
        var runStart = index
        func flush(upTo end: Int) {
            if runStart < end {
                scalars.append(contentsOf: String(decoding: bytes[runStart..<end], as: UTF8.self).unicodeScalars)
            }
        }
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                flush(upTo: index)
                index += 1
                return String(scalars)
            case UInt8(ascii: "\\"):
                flush(upTo: index)
                try parseEscape(into: &scalars)
                runStart = index
            case 0x00..<0x20:
                throw error("unescaped control character \(Self.hex(byte)) in a string")
            case 0x20..<0x80:
                index += 1
            default:
                guard let length = utf8SequenceLength(at: index) else { throw invalidUTF8() }
                index += length
            }
        }
        throw error("unexpected end of file inside a string")
    }

    /// Reads one escape sequence, starting at its backslash.
    private mutating func parseEscape(into scalars: inout String.UnicodeScalarView) throws(SyntaxError) {
        let start = index
        index += 1
        guard index < bytes.count else { throw error("unexpected end of file inside a string") }
        let escape = bytes[index]
        index += 1
        switch escape {
        case UInt8(ascii: "\""): scalars.append("\"")
        case UInt8(ascii: "\\"): scalars.append("\\")
        case UInt8(ascii: "/"): scalars.append("/")
        case UInt8(ascii: "b"): scalars.append("\u{08}")
        case UInt8(ascii: "f"): scalars.append("\u{0C}")
        case UInt8(ascii: "n"): scalars.append("\n")
        case UInt8(ascii: "r"): scalars.append("\r")
        case UInt8(ascii: "t"): scalars.append("\t")
        case UInt8(ascii: "u"):
            let unit = try parseHex4()
            switch unit {
            case 0xD800...0xDBFF:
                // A high surrogate must be followed by an escaped low surrogate.
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
                    bytes[index + 1] == UInt8(ascii: "u")
                else {
                    index = start
                    throw error("\(Self.escaped(unit)) is a lone UTF-16 surrogate: no \\uDC00-\\uDFFF follows it")
                }
                index += 2
                let low = try parseHex4()
                guard (0xDC00...0xDFFF).contains(low),
                    let scalar = Unicode.Scalar(0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00))
                else {
                    index = start
                    throw error(
                        "\(Self.escaped(unit)) is a lone UTF-16 surrogate: \(Self.escaped(low)) is not a low surrogate")
                }
                scalars.append(scalar)
            case 0xDC00...0xDFFF:
                index = start
                throw error("\(Self.escaped(unit)) is a lone UTF-16 surrogate: no high surrogate comes before it")
            default:
                // Every other UTF-16 unit is a scalar of its own.
                guard let scalar = Unicode.Scalar(unit) else { throw error("invalid \\u escape") }
                scalars.append(scalar)
            }
        default:
            index = start
            let shown =
                escape >= 0x21 && escape < 0x7F
                ? "'\\\(Character(Unicode.Scalar(escape)))'" : "\\ and byte \(Self.hex(escape))"
            throw error("invalid escape sequence \(shown) in a string")
        }
    }

    private mutating func parseHex4() throws(SyntaxError) -> UInt16 {
        guard index + 4 <= bytes.count else { throw error("unexpected end of file in a \\u escape") }
        var value: UInt16 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error("invalid hex digit in a \\u escape")
            }
            value = value << 4 | UInt16(digit)
            index += 1
        }
        return value
    }

    private mutating func parseNumber() throws(SyntaxError) -> Double {
        let start = index
        if peek(UInt8(ascii: "-")) { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else { throw error("invalid number") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, isDigit(bytes[index]) {
                throw error("numbers must not have leading zeros")
            }
        } else {
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if peek(UInt8(ascii: ".")) {
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else {
                throw error("invalid number: digit expected after '.'")
            }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if peek(UInt8(ascii: "e")) || peek(UInt8(ascii: "E")) {
            index += 1
            if peek(UInt8(ascii: "+")) || peek(UInt8(ascii: "-")) { index += 1 }
            guard index < bytes.count, isDigit(bytes[index]) else {
                throw error("invalid number: digit expected in exponent")
            }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        // The text is only ASCII digits, signs, '.' and 'e' here.
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let value = Double(text) else { throw error("invalid number") }
        // Too small a number rounds to zero, as in Foundation; too large a one has no value to show, and Foundation
        // refuses it too.
        guard value.isFinite else {
            let shown = text.count > 24 ? text.prefix(12) + "..." + text.suffix(8) : text[...]
            index = start
            throw error(
                "the number \(shown) is out of range: beyond the largest 64-bit floating-point number (about 1.8e308)"
            )
        }
        return value
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(SyntaxError) {
        let expected = literal.withUTF8Buffer { Array($0) }
        guard bytes.count - index >= expected.count,
            Array(bytes[index..<index + expected.count]) == expected
        else {
            throw unexpected("expected a value")
        }
        index += expected.count
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private func peek(_ byte: UInt8) -> Bool { index < bytes.count && bytes[index] == byte }
    private func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    // MARK: - UTF-8

    /// The length of the well-formed UTF-8 sequence (RFC 3629: no overlong forms, no surrogates, nothing above
    /// U+10FFFF) that starts at `position`, or nil when the bytes there are not one.
    private func utf8SequenceLength(at position: Int) -> Int? {
        let lead = bytes[position]
        if lead < 0x80 { return 1 }
        var length = 0
        var second: ClosedRange<UInt8> = 0x80...0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0:
            length = 3
            second = 0xA0...0xBF
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED:
            length = 3
            second = 0x80...0x9F
        case 0xF0:
            length = 4
            second = 0x90...0xBF
        case 0xF1...0xF3: length = 4
        case 0xF4:
            length = 4
            second = 0x80...0x8F
        default: return nil
        }
        guard position + length <= bytes.count, second.contains(bytes[position + 1]) else { return nil }
        for offset in 2..<length where !(0x80...0xBF).contains(bytes[position + offset]) { return nil }
        return length
    }

    /// The error for the ill-formed UTF-8 sequence at the current byte, naming its bytes up to the first bad one.
    private func invalidUTF8() -> SyntaxError {
        var shown = [bytes[index]]
        if (0xC2...0xF4).contains(bytes[index]) {
            var position = index + 1
            while position < bytes.count {
                shown.append(bytes[position])
                if !isPlausiblePrefix(shown) { break }
                position += 1
            }
        }
        let listed = shown.map(Self.hex).joined(separator: " ")
        return error("invalid UTF-8 at byte \(index + 1) (\(listed)); APNs takes only UTF-8 JSON")
    }

    /// Whether `prefix` (a lead byte and the bytes after it) can still begin a well-formed sequence.
    private func isPlausiblePrefix(_ prefix: [UInt8]) -> Bool {
        let expected = prefix[0] >= 0xF0 ? 4 : prefix[0] >= 0xE0 ? 3 : 2
        if prefix.count > expected { return false }
        let second: ClosedRange<UInt8> =
            switch prefix[0] {
            case 0xE0: 0xA0...0xBF
            case 0xED: 0x80...0x9F
            case 0xF0: 0x90...0xBF
            case 0xF4: 0x80...0x8F
            default: 0x80...0xBF
            }
        if !second.contains(prefix[1]) { return false }
        return prefix.dropFirst(2).allSatisfy { (0x80...0xBF).contains($0) }
    }

    // MARK: - Messages

    /// "unexpected X, <context>" for the current byte; an ill-formed UTF-8 sequence is reported as such.
    private func unexpected(_ context: String, separator: String = ", ") -> SyntaxError {
        guard index < bytes.count else { return error("unexpected end of file, \(context)") }
        let byte = bytes[index]
        if byte >= 0x80 {
            guard let length = utf8SequenceLength(at: index) else { return invalidUTF8() }
            // Named by code point: a character from the file is never echoed to a terminal.
            let scalar = String(decoding: bytes[index..<index + length], as: UTF8.self).unicodeScalars.first
            let code = String(scalar?.value ?? 0xFFFD, radix: 16, uppercase: true)
            let name = "U+" + String(repeating: "0", count: max(0, 4 - code.count)) + code
            return error("unexpected character \(name)\(separator)\(context)")
        }
        return error("unexpected \(Self.printable(byte))\(separator)\(context)")
    }

    /// A printable ASCII byte in quotes, anything else as hex.
    private static func printable(_ byte: UInt8) -> String {
        byte >= 0x21 && byte < 0x7F ? "'\(Character(Unicode.Scalar(byte)))'" : "byte " + hex(byte)
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return "0x" + (digits.count == 1 ? "0" + digits : digits)
    }

    private static func escaped(_ unit: UInt16) -> String {
        let digits = String(unit, radix: 16, uppercase: true)
        return "\\u" + String(repeating: "0", count: 4 - digits.count) + digits
    }

    private func error(_ message: String) -> SyntaxError {
        let end = min(index, bytes.count)
        var line = 1
        var lineStart = 0
        for position in 0..<end where bytes[position] == 0x0A {
            line += 1
            lineStart = position + 1
        }
        // Columns count characters, not bytes, so a position after Chinese text points where an editor would.
        // Everything before the current byte has been checked to be UTF-8.
        let column = String(decoding: bytes[lineStart..<end], as: UTF8.self).count + 1
        return SyntaxError(message: message, line: line, column: column, byte: end + 1)
    }
}
