import Crypto
import Foundation

// Security's key functions over ``SecKey``. Each failure is a `CFError` in Apple's OSStatus domain with a sentence
// saying what was wrong (or what richpush does not do), handed back through the `error` pointer as on iOS.

/// A new private key: `kSecAttrKeyType` `kSecAttrKeyTypeECSECPrimeRandom` with `kSecAttrKeySizeInBits` 256, 384 or
/// 521; stored in the keychain when `kSecPrivateKeyAttrs` says `kSecAttrIsPermanent`. RSA fails
/// (`errSecUnimplemented`).
/// https://developer.apple.com/documentation/security/seckeycreaterandomkey(_:_:)
public func SecKeyCreateRandomKey(
    _ parameters: CFDictionary, _ errorOut: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> SecKey? {
    let query = KeychainQuery(parameters)
    let privateAttributes = KeychainQuery(nestedDictionary(parameters[kSecPrivateKeyAttrs]))
    do {
        let curve = try keyCurve(type: query.attributes["type"], bits: query.attributes["bsiz"])
        let inSecureEnclave = query.attributes["tkid"] == .string(kSecAttrTokenIDSecureEnclave as String)
        var attributes: [String: KeychainValue] = [:]
        for name in ["atag", "labl", "perm"] {
            attributes[name] = privateAttributes.attributes[name] ?? query.attributes[name]
        }
        let key = SecKey.generate(curve, inSecureEnclave: inSecureEnclave, attributes: attributes)
        if let permanent = attributes["perm"], permanent == .number(1) {
            var item = KeychainQuery(nil)
            item.itemClass = "keys"
            item.valueRef = key
            item.accessGroup = privateAttributes.accessGroup ?? query.accessGroup
            let (status, _) = Keychain.shared.add(item)
            guard status == errSecSuccess else {
                throw KeyFailure(status, "the key could not be stored in the keychain (status \(status))")
            }
        }
        return key
    } catch {
        fail(error, to: errorOut)
        return nil
    }
}

/// The public key of a key pair (a public key is its own).
/// https://developer.apple.com/documentation/security/seckeycopypublickey(_:)
public func SecKeyCopyPublicKey(_ key: SecKey) -> SecKey? {
    key.publicKey
}

/// The key in X9.63 form (04 ‖ X ‖ Y, with K after it for a private key); fails for a Secure Enclave private key,
/// as on iOS. https://developer.apple.com/documentation/security/seckeycopyexternalrepresentation(_:_:)
public func SecKeyCopyExternalRepresentation(
    _ key: SecKey, _ errorOut: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> CFData? {
    guard let data = key.externalRepresentation else {
        report(errSecParam, "a Secure Enclave private key cannot be exported", to: errorOut)
        return nil
    }
    return data as NSData
}

/// A key from its X9.63 bytes; `attributes` give `kSecAttrKeyType` and `kSecAttrKeyClass`.
/// https://developer.apple.com/documentation/security/seckeycreatewithdata(_:_:_:)
public func SecKeyCreateWithData(
    _ keyData: CFData, _ attributes: CFDictionary, _ errorOut: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> SecKey? {
    let query = KeychainQuery(attributes)
    do {
        if case .string(let type)? = query.attributes["type"], type == (kSecAttrKeyTypeRSA as String) {
            throw rsaUnsupported
        }
        let keyClass = query.attributes["kcls"]
        guard keyClass == .string("0") || keyClass == .string("1") else {
            throw KeyFailure(errSecParam, "kSecAttrKeyClass must be kSecAttrKeyClassPublic or kSecAttrKeyClassPrivate")
        }
        return try SecKey.imported(Data(referencing: keyData), isPrivate: keyClass == .string("1"))
    } catch {
        fail(error, to: errorOut)
        return nil
    }
}

/// The key's attributes: class, type, size, label (the SHA-1 of the public key), tag.
/// https://developer.apple.com/documentation/security/seckeycopyattributes(_:)
public func SecKeyCopyAttributes(_ key: SecKey) -> CFDictionary? {
    let dictionary = NSMutableDictionary()
    for (name, value) in key.keychainAttributes { dictionary[name as NSString] = value.object }
    dictionary["class" as NSString] = "keys" as NSString
    if let data = key.externalRepresentation { dictionary["v_Data" as NSString] = data as NSData }
    return dictionary
}

/// The size of the key's field in bytes. https://developer.apple.com/documentation/security/seckeygetblocksize(_:)
public func SecKeyGetBlockSize(_ key: SecKey) -> Int {
    key.curve.fieldBytes
}

/// Whether `key` can do `operation` with `algorithm` here.
/// https://developer.apple.com/documentation/security/seckeyisalgorithmsupported(_:_:_:)
public func SecKeyIsAlgorithmSupported(
    _ key: SecKey, _ operation: SecKeyOperationType, _ algorithm: SecKeyAlgorithm
) -> Bool {
    switch (algorithm.operation, operation) {
    case (.sign, .sign): key.isPrivate
    case (.sign, .verify): true
    case (.ecies, .encrypt): true
    case (.ecies, .decrypt): key.isPrivate
    case (.keyExchange, .keyExchange): key.isPrivate
    default: false
    }
}

/// An ECDSA signature of `dataToSign` (a message the algorithm hashes, or a digest) with a private key.
/// https://developer.apple.com/documentation/security/seckeycreatesignature(_:_:_:_:)
public func SecKeyCreateSignature(
    _ key: SecKey, _ algorithm: SecKeyAlgorithm, _ dataToSign: CFData,
    _ errorOut: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> CFData? {
    do {
        guard case .sign(let hash, let hashesMessage, let raw) = try supported(algorithm) else {
            throw KeyFailure(errSecParam, "\(algorithm.rawValue) is not a signature algorithm")
        }
        guard key.isPrivate else { throw KeyFailure(errSecParam, "signing needs a private key") }
        let (digest, kind) = try digestInput(Data(referencing: dataToSign), hash: hash, hashesMessage: hashesMessage)
        return try key.sign(digest: digest, hash: kind, raw: raw) as NSData
    } catch {
        fail(error, to: errorOut)
        return nil
    }
}

/// Whether `signature` is the key's ECDSA signature of `signedData`; false with an error when it is not.
/// https://developer.apple.com/documentation/security/seckeyverifysignature(_:_:_:_:_:)
public func SecKeyVerifySignature(
    _ key: SecKey, _ algorithm: SecKeyAlgorithm, _ signedData: CFData, _ signature: CFData,
    _ errorOut: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> Bool {
    do {
        guard case .sign(let hash, let hashesMessage, let raw) = try supported(algorithm) else {
            throw KeyFailure(errSecParam, "\(algorithm.rawValue) is not a signature algorithm")
        }
        let (digest, kind) = try digestInput(Data(referencing: signedData), hash: hash, hashesMessage: hashesMessage)
        let valid =
            (try? key.verify(digest: digest, hash: kind, signature: Data(referencing: signature), raw: raw)) ?? false
        guard valid else { throw KeyFailure(errSecVerifyFailed, "the ECDSA signature does not match") }
        return true
    } catch {
        fail(error, to: errorOut)
        return false
    }
}

/// ECIES: an ephemeral key pair, ECDH with `key`'s public key, an X9.63 KDF (the ephemeral public key as shared
/// info) giving an AES-GCM key (128 bits for P-256, 256 above) and, for the `VariableIV` algorithms, the 16-byte IV
/// (else 16 zero bytes); the result is the ephemeral public key, the ciphertext and the 16-byte tag, as iOS lays it
/// (SecKey.h's description of `kSecKeyAlgorithmECIESEncryptionStandardX963SHA256AESGCM`; the layout checked against
/// ciphertexts iOS made, published in jedda/ECIES ecies_test.go at commit 1d15570137aa).
/// https://developer.apple.com/documentation/security/seckeycreateencrypteddata(_:_:_:_:)
public func SecKeyCreateEncryptedData(
    _ key: SecKey, _ algorithm: SecKeyAlgorithm, _ plaintext: CFData,
    _ errorOut: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> CFData? {
    do {
        guard case .ecies(let hash, let variableIV) = try supported(algorithm) else {
            throw KeyFailure(errSecParam, "\(algorithm.rawValue) is not an encryption algorithm")
        }
        let recipient = key.publicKey
        let ephemeral = SecKey.generate(recipient.curve)
        let (aesKey, iv) = eciesKey(
            try ephemeral.sharedSecret(with: recipient), hash: hash, variableIV: variableIV,
            ephemeralPublic: ephemeral.publicX963, curve: recipient.curve)
        let box = try AES.GCM.seal(Data(referencing: plaintext), using: aesKey, nonce: AES.GCM.Nonce(data: iv))
        return (ephemeral.publicX963 + box.ciphertext + box.tag) as NSData
    } catch {
        fail(error, to: errorOut)
        return nil
    }
}

/// Opens what ``SecKeyCreateEncryptedData(_:_:_:_:)`` made for this private key; fails when the data was changed or
/// is for another key. https://developer.apple.com/documentation/security/seckeycreatedecrypteddata(_:_:_:_:)
public func SecKeyCreateDecryptedData(
    _ key: SecKey, _ algorithm: SecKeyAlgorithm, _ ciphertext: CFData,
    _ errorOut: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> CFData? {
    do {
        guard case .ecies(let hash, let variableIV) = try supported(algorithm) else {
            throw KeyFailure(errSecParam, "\(algorithm.rawValue) is not an encryption algorithm")
        }
        guard key.isPrivate else { throw KeyFailure(errSecParam, "decrypting needs a private key") }
        let data = Data(referencing: ciphertext)
        let publicBytes = key.curve.publicBytes
        guard data.count >= publicBytes + 16 else {
            throw KeyFailure(errSecDecode, "\(data.count) bytes are too short for ECIES on P-\(key.curve.rawValue)")
        }
        let ephemeralPublic = Data(data.prefix(publicBytes))
        let ephemeral = try SecKey.imported(ephemeralPublic, isPrivate: false)
        let (aesKey, iv) = eciesKey(
            try key.sharedSecret(with: ephemeral), hash: hash, variableIV: variableIV,
            ephemeralPublic: ephemeralPublic, curve: key.curve)
        let box = try AES.GCM.SealedBox(
            nonce: AES.GCM.Nonce(data: iv),
            ciphertext: Data(data[(data.startIndex + publicBytes)..<(data.endIndex - 16)]),
            tag: Data(data.suffix(16)))
        guard let plaintext = try? AES.GCM.open(box, using: aesKey) else {
            throw KeyFailure(errSecDecode, "the ciphertext does not open with this key (changed, or for another key)")
        }
        return plaintext as NSData
    } catch {
        fail(error, to: errorOut)
        return nil
    }
}

/// ECDH of a private key and another's public key: the raw shared secret, or for the `X963` algorithms that many
/// bytes of X9.63 KDF output (`kSecKeyKeyExchangeParameterRequestedSize`, with
/// `kSecKeyKeyExchangeParameterSharedInfo`).
/// https://developer.apple.com/documentation/security/seckeycopykeyexchangeresult(_:_:_:_:_:)
public func SecKeyCopyKeyExchangeResult(
    _ privateKey: SecKey, _ algorithm: SecKeyAlgorithm, _ publicKey: SecKey, _ parameters: CFDictionary,
    _ errorOut: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> CFData? {
    do {
        guard case .keyExchange(let hash) = try supported(algorithm) else {
            throw KeyFailure(errSecParam, "\(algorithm.rawValue) is not a key exchange algorithm")
        }
        guard privateKey.isPrivate else { throw KeyFailure(errSecParam, "key exchange needs a private key") }
        let secret = try privateKey.sharedSecret(with: publicKey)
        guard let hash else { return secret.bytes as NSData }
        guard
            let size = parameters[kSecKeyKeyExchangeParameterRequestedSize] as? NSNumber
                ?? (parameters[kSecKeyKeyExchangeParameterRequestedSize] as? Int).map({ NSNumber(value: $0) }),
            size.intValue > 0
        else {
            throw KeyFailure(
                errSecParam, "kSecKeyKeyExchangeParameterRequestedSize is required for \(algorithm.rawValue)")
        }
        let sharedInfo = parameters[kSecKeyKeyExchangeParameterSharedInfo] as? Data ?? Data()
        return secret.x963(hash, sharedInfo: sharedInfo, count: size.intValue) as NSData
    } catch {
        fail(error, to: errorOut)
        return nil
    }
}

// MARK: - Helpers

private let rsaUnsupported = KeyFailure(
    errSecUnimplemented,
    "RSA is not supported under richpush (swift-crypto's Crypto, which it computes with, has no RSA); "
        + "elliptic-curve keys (kSecAttrKeyTypeECSECPrimeRandom) work"
)

/// The algorithm's operation, or a failure naming why it cannot run here.
private func supported(_ algorithm: SecKeyAlgorithm) throws -> SecKeyOperation {
    switch algorithm.operation {
    case .rsa: throw rsaUnsupported
    case .unsupported: throw KeyFailure(errSecUnimplemented, "\(algorithm.rawValue) is not supported under richpush")
    case let operation: return operation
    }
}

/// The curve of `kSecAttrKeyType` and `kSecAttrKeySizeInBits`.
private func keyCurve(type: KeychainValue?, bits: KeychainValue?) throws -> SecKey.Curve {
    guard case .string(let name)? = type else {
        throw KeyFailure(errSecParam, "kSecAttrKeyType is required (kSecAttrKeyTypeECSECPrimeRandom)")
    }
    if name == (kSecAttrKeyTypeRSA as String) { throw rsaUnsupported }
    guard name == (kSecAttrKeyTypeECSECPrimeRandom as String) else {
        throw KeyFailure(errSecParam, "kSecAttrKeyType \(name) is not a key type iOS makes")
    }
    let size: Int? =
        switch bits {
        case .number(let number)?: Int(number)
        case .string(let string)?: Int(string)
        default: 256
        }
    guard let size, let curve = SecKey.Curve(rawValue: size) else {
        throw KeyFailure(errSecParam, "kSecAttrKeySizeInBits must be 256, 384 or 521 for an elliptic-curve key")
    }
    return curve
}

/// The digest to sign or verify: the message hashed, or the digest given (whose length must be the hash's).
private func digestInput(_ data: Data, hash: HashKind?, hashesMessage: Bool) throws -> ([UInt8], HashKind) {
    if hashesMessage {
        let kind = hash ?? .sha256
        let digest: [UInt8] =
            switch kind {
            case .sha1: Array(Insecure.SHA1.hash(data: data))
            case .sha256: Array(SHA256.hash(data: data))
            case .sha384: Array(SHA384.hash(data: data))
            case .sha512: Array(SHA512.hash(data: data))
            }
        return (digest, kind)
    }
    guard let kind = hash ?? HashKind(byteCount: data.count), kind.byteCount == data.count else {
        throw KeyFailure(errSecParam, "a digest of \(data.count) bytes does not fit this algorithm")
    }
    return (Array(data), kind)
}

/// ECIES's AES key and IV from the shared secret.
private func eciesKey(
    _ secret: SharedSecret, hash: HashKind, variableIV: Bool, ephemeralPublic: Data, curve: SecKey.Curve
) -> (SymmetricKey, Data) {
    let keyBytes = curve == .p256 ? 16 : 32
    let derived = secret.x963(hash, sharedInfo: ephemeralPublic, count: keyBytes + (variableIV ? 16 : 0))
    let iv = variableIV ? Data(derived.suffix(16)) : Data(count: 16)
    return (SymmetricKey(data: derived.prefix(keyBytes)), iv)
}

/// A nested dictionary (`kSecPrivateKeyAttrs`), whichever way Swift bridged it.
private func nestedDictionary(_ value: Any?) -> CFDictionary? {
    if let dictionary = value as? NSDictionary { return dictionary }
    if let dictionary = value as? [AnyHashable: Any] {
        let result = NSMutableDictionary()
        for (key, value) in dictionary { result[key] = value }
        return result
    }
    return nil
}

/// Hands a failure to the caller's error pointer: a ``KeyFailure`` as it says, anything else (swift-crypto's) as
/// `errSecParam` with its description.
private func fail(_ failure: any Error, to pointer: UnsafeMutablePointer<Unmanaged<CFError>?>?) {
    if let failure = failure as? KeyFailure {
        report(failure.status, failure.reason, to: pointer)
    } else {
        report(errSecParam, "\(failure)", to: pointer)
    }
}
