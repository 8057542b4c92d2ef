import Crypto
import Foundation

/// The digest functions of Apple's CommonCrypto (`CC_MD5`, `CC_SHA1`, `CC_SHA256`) for extension code that uses
/// them, computed with swift-crypto.
public typealias CC_LONG = UInt32

public let CC_MD5_DIGEST_LENGTH: Int32 = 16
public let CC_SHA1_DIGEST_LENGTH: Int32 = 20
public let CC_SHA256_DIGEST_LENGTH: Int32 = 32

/// Writes the MD5 digest of `length` bytes at `data` to `md` (16 bytes) and returns `md`.
@discardableResult
public func CC_MD5(_ data: UnsafeRawPointer?, _ length: CC_LONG, _ md: UnsafeMutablePointer<UInt8>?)
    -> UnsafeMutablePointer<UInt8>?
{
    digest(Insecure.MD5.self, data, length, md)
}

/// Writes the SHA-1 digest of `length` bytes at `data` to `md` (20 bytes) and returns `md`.
@discardableResult
public func CC_SHA1(_ data: UnsafeRawPointer?, _ length: CC_LONG, _ md: UnsafeMutablePointer<UInt8>?)
    -> UnsafeMutablePointer<UInt8>?
{
    digest(Insecure.SHA1.self, data, length, md)
}

/// Writes the SHA-256 digest of `length` bytes at `data` to `md` (32 bytes) and returns `md`.
@discardableResult
public func CC_SHA256(_ data: UnsafeRawPointer?, _ length: CC_LONG, _ md: UnsafeMutablePointer<UInt8>?)
    -> UnsafeMutablePointer<UInt8>?
{
    digest(SHA256.self, data, length, md)
}

private func digest<Function: HashFunction>(
    _ function: Function.Type, _ data: UnsafeRawPointer?, _ length: CC_LONG, _ md: UnsafeMutablePointer<UInt8>?
) -> UnsafeMutablePointer<UInt8>? {
    guard let md else { return nil }
    let bytes = UnsafeRawBufferPointer(start: length == 0 ? nil : data, count: Int(length))
    let value = Function.hash(data: bytes)
    value.withUnsafeBytes { digest in
        for (index, byte) in digest.enumerated() { md[index] = byte }
    }
    return md
}
