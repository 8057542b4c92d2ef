import CommonCrypto
import Foundation
import Testing

@Suite("CommonCrypto's digests on Linux")
struct CommonCryptoTests {
    func hex(_ length: Int32, _ function: (UnsafeRawPointer?, CC_LONG, UnsafeMutablePointer<UInt8>?) -> Any?) -> String
    {
        let data = Array("abc".utf8)
        var digest = [UInt8](repeating: 0, count: Int(length))
        _ = function(data, CC_LONG(data.count), &digest)
        return digest.map { String(format: "%02x", $0) }.joined()
    }

    @Test("MD5, SHA-1 and SHA-256 of \"abc\" are the standard test vectors")
    func vectors() {
        #expect(hex(CC_MD5_DIGEST_LENGTH, CC_MD5) == "900150983cd24fb0d6963f7d28e17f72")
        #expect(hex(CC_SHA1_DIGEST_LENGTH, CC_SHA1) == "a9993e364706816aba3e25717850c26c9cd0d89d")
        #expect(
            hex(CC_SHA256_DIGEST_LENGTH, CC_SHA256)
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }
}
