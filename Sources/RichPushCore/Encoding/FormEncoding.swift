/// `name=value&name=value` text as HTML forms send it (`application/x-www-form-urlencoded`) and URLs carry it
/// in their query: the one encoder and decoder of both.
///
/// The two readings differ in one rule, which every caller states with ``Plus``: a form body's `+` is a space
/// (a display receipt's `push_id=a+b` reports `a b`), while the fixture CDN's URL query keeps a `+` as it is, so
/// that `type=image/svg+xml` names that media type (a space there is written `%20`).
///
/// ```swift
/// FormEncoding.fields(in: "delay=6s&type=image/svg+xml")    // [delay = 6s, type = image/svg+xml], as written
/// FormEncoding.decode("image/svg+xml", plus: .plus)         // "image/svg+xml"
/// FormEncoding.decode("a+b%2Fc", plus: .space)              // "a b/c"
/// FormEncoding.decode("100%", plus: .space)                 // nil: a bad escape
/// FormEncoding.encode("a b/c", plus: .space)                // "a+b%2Fc"
/// ```
public enum FormEncoding {
    /// What a `+` stands for.
    public enum Plus: Sendable {
        /// A space: `application/x-www-form-urlencoded` bodies (the WHATWG URL standard), such as a display
        /// receipt's `push_id=…`.
        case space
        /// A plus sign: the fixture CDN's URL query (the fixture URL grammar in DESIGN.md), where a media type
        /// such as `image/svg+xml` must keep its `+`.
        case plus
    }

    /// One `name=value` item as written, still encoded.
    public struct Field: Sendable, Equatable {
        public var rawName: String
        /// Empty when the item has no `=`.
        public var rawValue: String

        public init(rawName: String, rawValue: String) {
            self.rawName = rawName
            self.rawValue = rawValue
        }
    }

    /// The items of `text` in order, repeated names included: split at each `&` (empty items are skipped) and at
    /// an item's first `=`.
    public static func fields(in text: String) -> [Field] {
        text.split(separator: "&", omittingEmptySubsequences: true).map { item in
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return Field(rawName: String(parts[0]), rawValue: parts.count > 1 ? String(parts[1]) : "")
        }
    }

    /// `text` decoded: `%XX` is the byte XX, and `+` as `plus` says. Nil when a `%` is not followed by two hex
    /// digits, or the bytes are not UTF-8 text.
    public static func decode(_ text: String, plus: Plus) -> String? {
        guard let bytes = bytes(of: text, plus: plus, keepingBadEscapes: false) else { return nil }
        return String(validating: bytes, as: UTF8.self)
    }

    /// `text` decoded as the WHATWG form parser does, which never fails: a `%` not followed by two hex digits
    /// stays as written, and bytes that are not UTF-8 become U+FFFD.
    public static func decodeLeniently(_ text: String, plus: Plus) -> String {
        String(decoding: bytes(of: text, plus: plus, keepingBadEscapes: true) ?? [], as: UTF8.self)
    }

    /// `text` encoded (the WHATWG form serializer): ASCII letters, digits and `*-._` stay, every other byte of
    /// the UTF-8 text is `%XX`, except a space, which is `+` where `plus` is ``Plus/space``.
    public static func encode(_ text: String, plus: Plus) -> String {
        var encoded = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "*"), UInt8(ascii: "-"), UInt8(ascii: "."),
                UInt8(ascii: "_"):
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            case UInt8(ascii: " ") where plus == .space:
                encoded += "+"
            default:
                encoded += "%" + String(hexDigits[Int(byte >> 4)]) + String(hexDigits[Int(byte & 0x0F)])
            }
        }
        return encoded
    }

    /// `text` without the items whose decoded name is `name`, the others exactly as written; nil when none is
    /// left.
    public static func removing(_ name: String, from text: String?, plus: Plus) -> String? {
        guard let text else { return nil }
        let kept = text.split(separator: "&", omittingEmptySubsequences: true).filter { item in
            let rawName = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)[0]
            return decode(String(rawName), plus: plus) != name
        }
        return kept.isEmpty ? nil : kept.joined(separator: "&")
    }

    private static let hexDigits = Array("0123456789ABCDEF")

    /// The decoded bytes; nil at a bad escape unless `keepingBadEscapes`, which copies it as written.
    private static func bytes(of text: String, plus: Plus, keepingBadEscapes: Bool) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var index = 0
        while index < utf8.count {
            let byte = utf8[index]
            if byte == UInt8(ascii: "%") {
                if index + 2 < utf8.count, let high = hexValue(utf8[index + 1]), let low = hexValue(utf8[index + 2]) {
                    bytes.append(high << 4 | low)
                    index += 3
                    continue
                }
                guard keepingBadEscapes else { return nil }
                bytes.append(byte)
            } else if byte == UInt8(ascii: "+"), plus == .space {
                bytes.append(UInt8(ascii: " "))
            } else {
                bytes.append(byte)
            }
            index += 1
        }
        return bytes
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
