import Crypto
import Foundation

/// A key: elliptic-curve (P-256, P-384, P-521), private or public, computed with swift-crypto.
/// https://developer.apple.com/documentation/security/seckey
///
/// RSA keys cannot be made or imported (swift-crypto's Crypto has no RSA): those calls fail with
/// `errSecUnimplemented` and say so. A key made with `kSecAttrTokenIDSecureEnclave` is an ordinary key in the
/// process's memory whose private part, as on iOS, cannot be exported.
public final class SecKey: Hashable, Sendable {
    enum Curve: Int, Sendable {
        case p256 = 256
        case p384 = 384
        case p521 = 521

        /// Bytes of a coordinate.
        var fieldBytes: Int { (rawValue + 7) / 8 }
        /// An uncompressed X9.63 public key: 04, X, Y.
        var publicBytes: Int { 1 + 2 * fieldBytes }
        /// An X9.63 private key: the public key, then K.
        var privateBytes: Int { publicBytes + fieldBytes }
    }

    let curve: Curve
    let isPrivate: Bool
    /// X9.63: the public key (04 X Y), with K after it for a private key.
    let x963: Data
    let inSecureEnclave: Bool
    /// `kSecAttrApplicationTag`, `kSecAttrLabel` and `kSecAttrIsPermanent`, as the key was made with them.
    let creationAttributes: [String: KeychainValue]

    init(
        curve: Curve, isPrivate: Bool, x963: Data, inSecureEnclave: Bool = false,
        creationAttributes: [String: KeychainValue] = [:]
    ) {
        self.curve = curve
        self.isPrivate = isPrivate
        self.x963 = x963
        self.inSecureEnclave = inSecureEnclave
        self.creationAttributes = creationAttributes
    }

    public static func == (lhs: SecKey, rhs: SecKey) -> Bool {
        lhs.curve == rhs.curve && lhs.isPrivate == rhs.isPrivate && lhs.x963 == rhs.x963
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(x963)
    }

    var publicX963: Data { x963.prefix(curve.publicBytes) }

    var publicKey: SecKey { isPrivate ? SecKey(curve: curve, isPrivate: false, x963: publicX963) : self }

    /// What `SecKeyCopyExternalRepresentation` gives: X9.63; nil for a Secure Enclave private key.
    var externalRepresentation: Data? { isPrivate && inSecureEnclave ? nil : x963 }

    /// The attributes the keychain stores a key with (and `SecKeyCopyAttributes` returns).
    var keychainAttributes: [String: KeychainValue] {
        var attributes = creationAttributes
        attributes["kcls"] = .string(isPrivate ? "1" : "0")
        attributes["type"] = .string(kSecAttrKeyTypeECSECPrimeRandom as String)
        attributes["bsiz"] = .number(Double(curve.rawValue))
        attributes["esiz"] = .number(Double(curve.rawValue))
        // iOS labels an EC key with the SHA-1 of its public key.
        attributes["klbl"] = .data(Data(Insecure.SHA1.hash(data: publicX963)))
        if inSecureEnclave { attributes["tkid"] = .string(kSecAttrTokenIDSecureEnclave as String) }
        return attributes
    }

    /// A new private key on `curve`.
    static func generate(
        _ curve: Curve, inSecureEnclave: Bool = false, attributes: [String: KeychainValue] = [:]
    ) -> SecKey {
        let x963: Data =
            switch curve {
            case .p256: P256.Signing.PrivateKey().x963Representation
            case .p384: P384.Signing.PrivateKey().x963Representation
            case .p521: P521.Signing.PrivateKey().x963Representation
            }
        return SecKey(
            curve: curve, isPrivate: true, x963: x963, inSecureEnclave: inSecureEnclave,
            creationAttributes: attributes)
    }

    /// A key from X9.63 bytes (`SecKeyCreateWithData`); the curve is read from the length. Throws when the bytes are
    /// not a valid key of the class asked for.
    static func imported(_ data: Data, isPrivate: Bool) throws -> SecKey {
        let curves: [Curve] = [.p256, .p384, .p521]
        guard let curve = curves.first(where: { (isPrivate ? $0.privateBytes : $0.publicBytes) == data.count }) else {
            throw KeyFailure(
                errSecParam,
                "\(data.count) bytes are no X9.63 \(isPrivate ? "private" : "public") key of P-256, P-384 or P-521")
        }
        // Parsing validates the point (and the scalar).
        switch (curve, isPrivate) {
        case (.p256, true): _ = try P256.Signing.PrivateKey(x963Representation: data)
        case (.p256, false): _ = try P256.Signing.PublicKey(x963Representation: data)
        case (.p384, true): _ = try P384.Signing.PrivateKey(x963Representation: data)
        case (.p384, false): _ = try P384.Signing.PublicKey(x963Representation: data)
        case (.p521, true): _ = try P521.Signing.PrivateKey(x963Representation: data)
        case (.p521, false): _ = try P521.Signing.PublicKey(x963Representation: data)
        }
        return SecKey(curve: curve, isPrivate: isPrivate, x963: data)
    }

    // MARK: ECDSA

    /// Signs a digest made with `hash`: DER (X9.62) or raw r‖s (RFC 4754).
    func sign(digest: [UInt8], hash: HashKind, raw: Bool) throws -> Data {
        switch hash {
        case .sha1: try sign(PrecomputedDigest<Insecure.SHA1>(digest), raw: raw)
        case .sha256: try sign(PrecomputedDigest<SHA256>(digest), raw: raw)
        case .sha384: try sign(PrecomputedDigest<SHA384>(digest), raw: raw)
        case .sha512: try sign(PrecomputedDigest<SHA512>(digest), raw: raw)
        }
    }

    private func sign<D: Digest>(_ digest: D, raw: Bool) throws -> Data {
        switch curve {
        case .p256:
            let signature = try P256.Signing.PrivateKey(x963Representation: x963).signature(for: digest)
            return raw ? signature.rawRepresentation : signature.derRepresentation
        case .p384:
            let signature = try P384.Signing.PrivateKey(x963Representation: x963).signature(for: digest)
            return raw ? signature.rawRepresentation : signature.derRepresentation
        case .p521:
            let signature = try P521.Signing.PrivateKey(x963Representation: x963).signature(for: digest)
            return raw ? signature.rawRepresentation : signature.derRepresentation
        }
    }

    /// Whether `signature` (DER or raw) is this public key's over a digest made with `hash`.
    func verify(digest: [UInt8], hash: HashKind, signature: Data, raw: Bool) throws -> Bool {
        switch hash {
        case .sha1: try verify(PrecomputedDigest<Insecure.SHA1>(digest), signature, raw: raw)
        case .sha256: try verify(PrecomputedDigest<SHA256>(digest), signature, raw: raw)
        case .sha384: try verify(PrecomputedDigest<SHA384>(digest), signature, raw: raw)
        case .sha512: try verify(PrecomputedDigest<SHA512>(digest), signature, raw: raw)
        }
    }

    private func verify<D: Digest>(_ digest: D, _ signature: Data, raw: Bool) throws -> Bool {
        let key = publicX963
        switch curve {
        case .p256:
            let parsed =
                raw
                ? try P256.Signing.ECDSASignature(rawRepresentation: signature)
                : try P256.Signing.ECDSASignature(derRepresentation: signature)
            return try P256.Signing.PublicKey(x963Representation: key).isValidSignature(parsed, for: digest)
        case .p384:
            let parsed =
                raw
                ? try P384.Signing.ECDSASignature(rawRepresentation: signature)
                : try P384.Signing.ECDSASignature(derRepresentation: signature)
            return try P384.Signing.PublicKey(x963Representation: key).isValidSignature(parsed, for: digest)
        case .p521:
            let parsed =
                raw
                ? try P521.Signing.ECDSASignature(rawRepresentation: signature)
                : try P521.Signing.ECDSASignature(derRepresentation: signature)
            return try P521.Signing.PublicKey(x963Representation: key).isValidSignature(parsed, for: digest)
        }
    }

    // MARK: ECDH

    /// The ECDH shared secret of this private key and `other`'s public key.
    func sharedSecret(with other: SecKey) throws -> SharedSecret {
        guard other.curve == curve else {
            throw KeyFailure(
                errSecParam, "the keys are on different curves (P-\(curve.rawValue), P-\(other.curve.rawValue))")
        }
        switch curve {
        case .p256:
            return try P256.KeyAgreement.PrivateKey(x963Representation: x963)
                .sharedSecretFromKeyAgreement(with: P256.KeyAgreement.PublicKey(x963Representation: other.publicX963))
        case .p384:
            return try P384.KeyAgreement.PrivateKey(x963Representation: x963)
                .sharedSecretFromKeyAgreement(with: P384.KeyAgreement.PublicKey(x963Representation: other.publicX963))
        case .p521:
            return try P521.KeyAgreement.PrivateKey(x963Representation: x963)
                .sharedSecretFromKeyAgreement(with: P521.KeyAgreement.PublicKey(x963Representation: other.publicX963))
        }
    }
}

/// A digest computed elsewhere (the `…Digest…` algorithms sign one), for swift-crypto's `signature(for:)`.
struct PrecomputedDigest<Hash: HashFunction>: Digest {
    static var byteCount: Int { Hash.Digest.byteCount }
    let bytes: [UInt8]

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try bytes.withUnsafeBytes(body)
    }

    func makeIterator() -> IndexingIterator<[UInt8]> { bytes.makeIterator() }

    var description: String { bytes.map { String(format: "%02x", $0) }.joined() }
}

/// A failed key operation: its status and why, handed to the caller as a `CFError`.
struct KeyFailure: Error {
    let status: OSStatus
    let reason: String
    init(_ status: OSStatus, _ reason: String) {
        self.status = status
        self.reason = reason
    }
}

extension SharedSecret {
    /// The secret's bytes.
    var bytes: Data { withUnsafeBytes { Data($0) } }

    /// X9.63 KDF output of `count` bytes with `hash` and `sharedInfo`.
    func x963(_ hash: HashKind, sharedInfo: Data, count: Int) -> Data {
        let key: SymmetricKey =
            switch hash {
            case .sha1:
                x963DerivedSymmetricKey(using: Insecure.SHA1.self, sharedInfo: sharedInfo, outputByteCount: count)
            case .sha256: x963DerivedSymmetricKey(using: SHA256.self, sharedInfo: sharedInfo, outputByteCount: count)
            case .sha384: x963DerivedSymmetricKey(using: SHA384.self, sharedInfo: sharedInfo, outputByteCount: count)
            case .sha512: x963DerivedSymmetricKey(using: SHA512.self, sharedInfo: sharedInfo, outputByteCount: count)
            }
        return key.withUnsafeBytes { Data($0) }
    }
}
