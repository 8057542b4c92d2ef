import CryptoKit
import Foundation
import Testing

@Suite("CryptoKit on Linux: swift-crypto's API under CryptoKit's name")
struct CryptoKitTests {
    @Test("import CryptoKit alone gives the digests, with known answers")
    func digests() {
        let digest = SHA256.hash(data: Data("abc".utf8))
        #expect(
            digest.map { String(format: "%02x", $0) }.joined()
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(Insecure.MD5.hash(data: Data()).description.hasSuffix("d41d8cd98f00b204e9800998ecf8427e"))
    }

    @Test("Web Push decryption as Mastodon's and Ice Cubes' extensions do it: ECDH, HKDF, AES-GCM")
    func webPush() throws {
        let receiver = P256.KeyAgreement.PrivateKey()
        let sender = P256.KeyAgreement.PrivateKey()
        let auth = Data((0..<16).map { UInt8($0) })
        let salt = Data((16..<32).map { UInt8($0) })
        func key(_ secret: SharedSecret) -> (SymmetricKey, [UInt8]) {
            let material = secret.hkdfDerivedSymmetricKey(
                using: SHA256.self, salt: auth, sharedInfo: Data("Content-Encoding: auth\0".utf8), outputByteCount: 32)
            let key = HKDF<SHA256>.deriveKey(
                inputKeyMaterial: material, salt: salt, info: Data("aesgcm".utf8), outputByteCount: 16)
            let nonce = HKDF<SHA256>.deriveKey(
                inputKeyMaterial: material, salt: salt, info: Data("nonce".utf8), outputByteCount: 12)
            return (key, nonce.withUnsafeBytes(Array.init))
        }
        let (sendKey, sendNonce) = key(try sender.sharedSecretFromKeyAgreement(with: receiver.publicKey))
        let sealed = try AES.GCM.seal(
            Data("\0\0{\"title\":\"hi\"}".utf8), using: sendKey, nonce: AES.GCM.Nonce(data: sendNonce))
        let publicKey = try P256.KeyAgreement.PublicKey(x963Representation: sender.publicKey.x963Representation)
        let (receiveKey, receiveNonce) = key(try receiver.sharedSecretFromKeyAgreement(with: publicKey))
        let box = try AES.GCM.SealedBox(combined: receiveNonce + sealed.ciphertext + sealed.tag)
        #expect(
            String(decoding: try AES.GCM.open(box, using: receiveKey).dropFirst(2), as: UTF8.self)
                == "{\"title\":\"hi\"}")
    }

    @Test("the Secure Enclave is reported unavailable and making a key in it throws")
    func secureEnclave() {
        #expect(!SecureEnclave.isAvailable)
        #expect(throws: CryptoKitError.self) { try SecureEnclave.P256.Signing.PrivateKey() }
    }
}
