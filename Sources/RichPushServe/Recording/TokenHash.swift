import Crypto

/// What a recording writes instead of a device token or an FCM registration token: a stable hash (the same token
/// always gives the same text, so a corpus still shows which pushes went to one device) that keeps the token's
/// shape, so a recorded refusal is refused again for the same reason. A hex token becomes hex of the same length
/// (a valid token stays valid, a 63-digit one stays too short); any other text becomes `t` and 40 hex digits (not
/// hexadecimal, as it was not); `/` and empty parts are kept (a path stays a path).
public enum TokenHash {
    /// Mixed into every hash, so the text cannot be looked up in a table of plain SHA-256 values of tokens.
    static let label = "richpush-record-token-v1"

    public static func replacing(_ token: String) -> String {
        token.split(separator: "/", omittingEmptySubsequences: false).map { part -> String in
            if part.isEmpty { return "" }
            if part.allSatisfy(\.isHexDigit) { return hex(of: part, count: part.count) }
            return "t" + hex(of: part, count: 40)
        }.joined(separator: "/")
    }

    /// `count` hex digits of SHA-256(label, part, block number), as many blocks as needed.
    static func hex(of part: Substring, count: Int) -> String {
        var digits = ""
        var block = 0
        while digits.count < count {
            let digest = SHA256.hash(data: Array("\(label)\u{0}\(part)\u{0}\(block)".utf8))
            digits += digest.map { byte in
                let text = String(byte, radix: 16)
                return byte < 16 ? "0" + text : text
            }.joined()
            block += 1
        }
        return String(digits.prefix(count))
    }
}
