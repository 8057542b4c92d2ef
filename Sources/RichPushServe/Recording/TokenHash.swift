import Crypto
import RichPushCore

/// What a recording writes instead of a device token, an FCM registration token or an FCM project: a hash keyed by
/// the recording folder's own random salt (``RecordingSalt``), so the same token always gives the same text within
/// one corpus (it still shows which pushes went to one device) but two corpora cannot be linked by it, and no table
/// of hashes of known tokens finds it. The hash keeps the token's shape, so a recorded refusal is refused again for
/// the same reason: a hex token becomes hex of the same length (a valid token stays valid, a 63-digit one stays too
/// short); any other text becomes `t` and 40 hex digits (not hexadecimal, as it was not); `/` and empty parts are
/// kept (a path stays a path).
public enum TokenHash {
    /// Mixed into every hash beside the salt, so a hash made for another purpose with the same key never matches.
    static let label = "richpush-record-token-v2"

    public static func replacing(_ token: String, salt: [UInt8]) -> String {
        token.split(separator: "/", omittingEmptySubsequences: false).map { part -> String in
            if part.isEmpty { return "" }
            if part.allSatisfy(\.isHexDigit) { return hex(of: part, count: part.count, salt: salt) }
            return "t" + hex(of: part, count: 40, salt: salt)
        }.joined(separator: "/")
    }

    /// The path of a refused request as a recording keeps it: the words of the two endpoints' routes
    /// (`/3/device/`, `/v1/projects/…/messages:send`) as sent, every other segment (a device token, in the right
    /// place or a mistyped one, an FCM project or registration token) hashed, the query dropped.
    public static func path(_ path: String, salt: [UInt8]) -> String {
        let pathOnly = path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return pathOnly.split(separator: "/", omittingEmptySubsequences: false).map { segment -> String in
            if segment.isEmpty || routeWords.contains(String(segment)) { return String(segment) }
            return replacing(String(segment), salt: salt)
        }.joined(separator: "/")
    }

    /// The path segments of the endpoints' routes, which are no one's secret.
    static let routeWords: Set<String> = ["3", "device", "v1", "projects", "messages:send"]

    /// `count` hex digits of HMAC-SHA256(salt; label, part, block number), as many blocks as needed.
    static func hex(of part: Substring, count: Int, salt: [UInt8]) -> String {
        let key = SymmetricKey(data: salt)
        var digits = ""
        var block = 0
        while digits.count < count {
            let digest = HMAC<SHA256>.authenticationCode(
                for: Array("\(label)\u{0}\(part)\u{0}\(block)".utf8), using: key)
            digits += Hexadecimal.lowercase(digest)
            block += 1
        }
        return String(digits.prefix(count))
    }

    /// A new random salt, for a new recording folder.
    public static func newSalt() -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }
}
