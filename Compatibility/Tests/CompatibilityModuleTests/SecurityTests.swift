import Crypto
import Foundation
import Synchronization
import Testing

@testable import Security

/// The notes the keychain sends richpush, caught.
final class NoteLog: Sendable {
    let notes = Mutex<[String]>([])
    var all: [String] { notes.withLock { $0 } }
}

@Suite("Security on Linux: an empty keychain per notification, SecKey with swift-crypto", .serialized)
struct SecurityTests {
    /// A fresh keychain, as a new notification's process has, with its notes caught.
    func freshKeychain() -> NoteLog {
        Keychain.shared.reset()
        let log = NoteLog()
        Keychain.shared.noteSink.withLock { sink in sink = { detail in log.notes.withLock { $0.append(detail) } } }
        return log
    }

    /// Damus's keychain wrapper, as written: CFString keys, `as CFDictionary`, `AnyObject?` result.
    func read(account: String) -> (OSStatus, String?) {
        let query =
            [
                kSecAttrService: "damus", kSecAttrAccount: account, kSecClass: kSecClassGenericPassword,
                kSecReturnData: true, kSecMatchLimit: kSecMatchLimitOne,
            ] as [CFString: Any] as CFDictionary
        var result: AnyObject?
        let status = SecItemCopyMatching(query, &result)
        return (status, (result as? Data).flatMap { String(data: $0, encoding: .utf8) })
    }

    func write(account: String, value: String) -> OSStatus {
        let query =
            [
                kSecAttrService: "damus", kSecAttrAccount: account, kSecClass: kSecClassGenericPassword,
                kSecValueData: Data(value.utf8) as Any,
            ] as [CFString: Any] as CFDictionary
        return SecItemAdd(query, nil)
    }

    @Test("the keychain starts empty; what the extension adds is found, updated and deleted")
    func addFindUpdateDelete() {
        _ = freshKeychain()
        #expect(read(account: "token").0 == errSecItemNotFound)
        #expect(write(account: "token", value: "abc") == errSecSuccess)
        #expect(read(account: "token") == (errSecSuccess, "abc"))
        #expect(write(account: "token", value: "again") == errSecDuplicateItem)
        let match =
            [kSecClass: kSecClassGenericPassword, kSecAttrService: "damus", kSecAttrAccount: "token"]
            as [CFString: Any] as CFDictionary
        let update = [kSecValueData: Data("xyz".utf8)] as [CFString: Any] as CFDictionary
        #expect(SecItemUpdate(match, update) == errSecSuccess)
        #expect(read(account: "token") == (errSecSuccess, "xyz"))
        #expect(SecItemDelete(match) == errSecSuccess)
        #expect(SecItemDelete(match) == errSecItemNotFound)
        #expect(read(account: "token").0 == errSecItemNotFound)
    }

    @Test("String keys, kCFBooleanTrue, attributes and kSecMatchLimitAll, as keychain wrappers write them")
    func attributesAndLimitAll() throws {
        _ = freshKeychain()
        for account in ["a", "b"] {
            let item: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "svc",
                kSecAttrAccount as String: account, kSecValueData as String: Data(account.utf8),
                kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlock,
            ]
            #expect(SecItemAdd(item as CFDictionary, nil) == errSecSuccess)
        }
        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "svc",
            kSecReturnAttributes as String: kCFBooleanTrue!, kSecReturnData as String: kCFBooleanTrue!,
            kSecMatchLimit as String: kSecMatchLimitAll,
        ]
        var result: CFTypeRef?
        #expect(SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess)
        let items = try #require(result as? [[String: Any]])
        #expect(items.count == 2)
        #expect(Set(items.compactMap { $0[kSecAttrAccount as String] as? String }) == ["a", "b"])
        #expect(
            items.allSatisfy { ($0[kSecValueData as String] as? Data) == ($0["acct"] as? String).map { Data($0.utf8) } }
        )
        #expect(items.first?[kSecAttrAccessible as String] as? String == "ck")
        // Existence check: no return key, success and no result.
        var none: CFTypeRef?
        let exists: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: "a"]
        #expect(SecItemCopyMatching(exists as CFDictionary, &none) == errSecSuccess && none == nil)
        #expect(SecItemCopyMatching([kSecAttrAccount as String: "a"] as CFDictionary, &none) == errSecParam)
    }

    @Test("a lookup that finds nothing is noted once per distinct query, naming what was looked for")
    func notFoundNotes() throws {
        let log = freshKeychain()
        for _ in 0..<5 { _ = read(account: "session") }
        #expect(log.all.count == 1, "a loop does not flood: \(log.all)")
        let note = try #require(log.all.first)
        #expect(
            note.hasPrefix(
                "SecItemCopyMatching found no item (class kSecClassGenericPassword, service \"damus\", account \"session\", access group any)"
            ))
        #expect(
            note.contains(
                "the extension's keychain is empty under richpush; on a phone it shares the app's keychain group"))
        _ = read(account: "other")
        #expect(log.all.count == 2)
        _ = write(account: "mine", value: "1")
        _ = read(account: "third")
        #expect(log.all.last?.contains("holds only what it added itself") == true)
    }

    @Test("SecKey: a P-256 key signs, its public key verifies, a changed message does not verify")
    func signAndVerify() throws {
        _ = freshKeychain()
        let attributes: [String: Any] = [
            kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeySizeInBits as String: 256,
        ]
        var error: Unmanaged<CFError>?
        let privateKey = try #require(SecKeyCreateRandomKey(attributes as CFDictionary, &error))
        let publicKey = try #require(SecKeyCopyPublicKey(privateKey))
        let message = Data("hello".utf8)
        let signature = try #require(
            SecKeyCreateSignature(privateKey, .ecdsaSignatureMessageX962SHA256, message as CFData, &error) as Data?)
        #expect(
            SecKeyVerifySignature(
                publicKey, .ecdsaSignatureMessageX962SHA256, message as CFData, signature as CFData, &error))
        #expect(
            !SecKeyVerifySignature(
                publicKey, .ecdsaSignatureMessageX962SHA256, Data("hellO".utf8) as CFData, signature as CFData, &error))
        #expect((error?.takeRetainedValue() as Error?).map { ($0 as NSError).code } == Int(errSecVerifyFailed))
        // Interoperable with CryptoKit: the X9.63 bytes are CryptoKit's, and its signature verifies here.
        let external = try #require(SecKeyCopyExternalRepresentation(publicKey, &error) as Data?)
        let cryptoKitKey = try P256.Signing.PublicKey(x963Representation: external)
        #expect(
            cryptoKitKey.isValidSignature(try P256.Signing.ECDSASignature(derRepresentation: signature), for: message))
        let other = P256.Signing.PrivateKey()
        let imported = try #require(
            SecKeyCreateWithData(
                other.publicKey.x963Representation as CFData,
                [kSecAttrKeyType: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeyClass: kSecAttrKeyClassPublic]
                    as [CFString: Any] as CFDictionary, &error))
        let digest = Data(SHA256.hash(data: message))
        let raw = try other.signature(for: message).rawRepresentation
        #expect(
            SecKeyVerifySignature(imported, .ecdsaSignatureDigestRFC4754SHA256, digest as CFData, raw as CFData, &error)
        )
    }

    @Test("SecKey: ECIES round trip, ECDH agreement, a permanent key found by its tag")
    func encryptionAndKeyExchange() throws {
        _ = freshKeychain()
        var error: Unmanaged<CFError>?
        let tag = Data("com.example.push-key".utf8)
        let parameters: [String: Any] = [
            kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeySizeInBits as String: 256,
            kSecPrivateKeyAttrs as String: [
                kSecAttrIsPermanent as String: true, kSecAttrApplicationTag as String: tag,
            ],
        ]
        let key = try #require(SecKeyCreateRandomKey(parameters as CFDictionary, &error))
        let plaintext = Data("secret message".utf8)
        let algorithm = SecKeyAlgorithm.eciesEncryptionCofactorVariableIVX963SHA256AESGCM
        #expect(SecKeyIsAlgorithmSupported(key, .decrypt, algorithm))
        let sealed = try #require(
            SecKeyCreateEncryptedData(SecKeyCopyPublicKey(key)!, algorithm, plaintext as CFData, &error) as Data?)
        #expect(sealed.count == 65 + plaintext.count + 16, "ephemeral key, ciphertext, tag")
        #expect(SecKeyCreateDecryptedData(key, algorithm, sealed as CFData, &error) as Data? == plaintext)
        var tampered = sealed
        tampered[tampered.count - 1] ^= 1
        #expect(SecKeyCreateDecryptedData(key, algorithm, tampered as CFData, &error) == nil)

        let peer = try #require(
            SecKeyCreateRandomKey(parameters.filter { $0.key != kSecPrivateKeyAttrs as String } as CFDictionary, &error)
        )
        let exchange = [kSecKeyKeyExchangeParameterRequestedSize as String: 32] as CFDictionary
        let mine =
            SecKeyCopyKeyExchangeResult(
                key, .ecdhKeyExchangeStandardX963SHA256, SecKeyCopyPublicKey(peer)!, exchange, &error) as Data?
        let theirs =
            SecKeyCopyKeyExchangeResult(
                peer, .ecdhKeyExchangeStandardX963SHA256, SecKeyCopyPublicKey(key)!, exchange, &error) as Data?
        #expect(mine != nil && mine == theirs && mine?.count == 32)

        let lookup: [String: Any] = [
            kSecClass as String: kSecClassKey, kSecAttrApplicationTag as String: tag,
            kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom, kSecReturnRef as String: true,
        ]
        var found: CFTypeRef?
        #expect(SecItemCopyMatching(lookup as CFDictionary, &found) == errSecSuccess)
        #expect((found as? SecKey) == key)
    }

    @Test("ECIES opens ciphertexts iOS's SecKeyCreateEncryptedData made (variable IV on P-256, zero IV on P-521)")
    func eciesFromiOS() throws {
        // Keys (SEC1 DER) and ciphertexts made on iOS, each the encryption of its own name, published as test
        // vectors in jedda/ECIES (ecies_test.go, TestExternalDecryptSuccess, commit 1d15570137aa).
        let vectors: [(name: String, key: String, ciphertext: String, algorithm: SecKeyAlgorithm)] = [
            (
                "P256-SHA256-VIV",
                "MHcCAQEEIHGhxnpu3kG/nW5ozDZJ+TTFQvL6MynCcQWD6jHV4p0UoAoGCCqGSM49AwEHoUQDQgAEzgFYw3Rqc72IIYHV7JH6M245n/nLnxyre1A7sc5nOt31ZyfJQLXGs4dY0cggne28ueXHID5lKz1JNChY49NHYg==",
                "BI6sBCGyf916GQSV3DHOvmFxOmzbV9pq08wcOdKaepP2/Qtepj9M71dYkzXf6OqIstDyyVIxfnAMfUpxZzoCHDbalYRzzwhqHwg7K6RNl1F29PVdLNtJH498yJSfloW/",
                .eciesEncryptionCofactorVariableIVX963SHA256AESGCM
            ),
            (
                "P521-SHA512-0IV",
                "MIHcAgEBBEIAqKpwdZ9JdC3JdVpM7gj1Bgkep3LNTkYWqEYqwNe5w7oyzDh1yU0LVZzefyZNdaagU6DGNdZ+5u9cHqnh9GrQ5gWgBwYFK4EEACOhgYkDgYYABAD+MDxfbvbe9ZRZcZgWyDBbpf3JxHii0iScjxNqNWClJWlehHfX8niGE6VNktRQ3lMIwDSvUy3Esiex3gu8RHZnwAGzPjwLm1/w2YbOfp2TCNTL8m6eYUfLU0SNW7B61koL+Sk50yTHoseP7+lmM2t8x6uKsyLdo+XCIevpW8IEh0s5wg==",
                "BABqJoMa89aD0rRkZ+WrmWTeqUfcr3uvLmyk7KlbWPm45m0ptDeqsaxFtqeM0VR6IoBMQcvcCcW+hzlLPr7i15LJlADzKYe7al7Vp10fJBnnhM2K7Z12o/VtOynEEt+ed5IkP9BiopN/3swl79caHQqXxX+SWQijwosMh0rGFJZPjsPFcPpe8Aj9CiJ3y0hRH1D4fp+qtpx9LOBLyuXvRwdFi0Y=",
                .eciesEncryptionCofactorX963SHA512AESGCM
            ),
        ]
        for vector in vectors {
            let der = try #require(Data(base64Encoded: vector.key))
            let x963 =
                vector.name.hasPrefix("P256")
                ? try P256.KeyAgreement.PrivateKey(derRepresentation: der).x963Representation
                : try P521.KeyAgreement.PrivateKey(derRepresentation: der).x963Representation
            var error: Unmanaged<CFError>?
            let attributes = [
                kSecAttrKeyType: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeyClass: kSecAttrKeyClassPrivate,
            ]
            let key = try #require(
                SecKeyCreateWithData(x963 as CFData, attributes as [CFString: Any] as CFDictionary, &error))
            let ciphertext = try #require(Data(base64Encoded: vector.ciphertext))
            let plaintext = SecKeyCreateDecryptedData(key, vector.algorithm, ciphertext as CFData, &error) as Data?
            #expect(plaintext.map { String(decoding: $0, as: UTF8.self) } == vector.name)
        }
    }

    @Test("RSA is refused with a sentence saying why; a Secure Enclave private key does not export")
    func unsupported() throws {
        _ = freshKeychain()
        var error: Unmanaged<CFError>?
        let rsa: [String: Any] = [kSecAttrKeyType as String: kSecAttrKeyTypeRSA, kSecAttrKeySizeInBits as String: 2048]
        #expect(SecKeyCreateRandomKey(rsa as CFDictionary, &error) == nil)
        let failure = try #require(error?.takeRetainedValue())
        #expect(
            failure.code == Int(errSecUnimplemented)
                && failure.localizedDescription.contains("RSA is not supported under richpush"))
        let enclave: [String: Any] = [
            kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeySizeInBits as String: 256,
            kSecAttrTokenID as String: kSecAttrTokenIDSecureEnclave,
        ]
        let key = try #require(SecKeyCreateRandomKey(enclave as CFDictionary, &error))
        #expect(SecKeyCopyExternalRepresentation(key, &error) == nil)
        #expect(SecKeyCopyExternalRepresentation(SecKeyCopyPublicKey(key)!, &error) != nil)
    }

    @Test("SecRandomCopyBytes fills the buffer with fresh bytes")
    func randomBytes() {
        var first = [UInt8](repeating: 0, count: 32)
        var second = [Int8](repeating: 0, count: 32)
        #expect(SecRandomCopyBytes(kSecRandomDefault, first.count, &first) == errSecSuccess)
        #expect(SecRandomCopyBytes(kSecRandomDefault, second.count, &second) == errSecSuccess)
        #expect(first != [UInt8](repeating: 0, count: 32) && first != second.map { UInt8(bitPattern: $0) })
        #expect(
            SecCopyErrorMessageString(errSecItemNotFound, nil) as String?
                == "The specified item could not be found in the keychain.")
    }
}
