import Foundation

/// A source of random bytes; the only one is the default (nil).
/// https://developer.apple.com/documentation/security/secrandomref
public final class SecRandom: Sendable {
    private init() {}
}

/// https://developer.apple.com/documentation/security/secrandomref
public typealias SecRandomRef = SecRandom

/// The system's cryptographically secure generator.
/// https://developer.apple.com/documentation/security/ksecrandomdefault
public let kSecRandomDefault: SecRandom? = nil

/// Fills `count` bytes at `bytes` from the system's secure generator; `errSecSuccess`.
/// https://developer.apple.com/documentation/security/secrandomcopybytes(_:_:_:)
public func SecRandomCopyBytes(_ rnd: SecRandom?, _ count: Int, _ bytes: UnsafeMutableRawPointer) -> Int32 {
    guard count > 0 else { return errSecSuccess }
    var generator = SystemRandomNumberGenerator()
    let buffer = UnsafeMutableRawBufferPointer(start: bytes, count: count)
    var offset = 0
    while offset < count {
        withUnsafeBytes(of: generator.next() as UInt64) { word in
            let n = min(word.count, count - offset)
            buffer.baseAddress!.advanced(by: offset).copyMemory(from: word.baseAddress!, byteCount: n)
            offset += n
        }
    }
    return errSecSuccess
}
