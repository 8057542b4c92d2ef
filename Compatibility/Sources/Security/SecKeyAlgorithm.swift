import Foundation

/// A key algorithm, as Security names them. https://developer.apple.com/documentation/security/seckeyalgorithm
///
/// Elliptic-curve algorithms work (ECDSA signatures in X9.62 DER or RFC 4754 raw form, ECIES encryption with AES-GCM,
/// ECDH key exchange, on P-256, P-384 and P-521); RSA's are named so code builds, and fail with `errSecUnimplemented`
/// and a sentence saying why: swift-crypto's Crypto, which richpush computes with, has no RSA.
public struct SecKeyAlgorithm: RawRepresentable, Hashable, @unchecked Sendable {
    // @unchecked: the raw value is an immutable NSString (Linux's NSString is not marked Sendable).
    public var rawValue: CFString
    public init(rawValue: CFString) { self.rawValue = rawValue }

    private init(_ name: String) { rawValue = name as CFString }

    // ECDSA: https://developer.apple.com/documentation/security/seckeyalgorithm/ecdsasignaturemessagex962sha256
    public static let ecdsaSignatureRFC4754 = SecKeyAlgorithm("algid:sign:ECDSA:RFC4754")
    public static let ecdsaSignatureDigestX962 = SecKeyAlgorithm("algid:sign:ECDSA:digest-X962")
    public static let ecdsaSignatureDigestX962SHA1 = SecKeyAlgorithm("algid:sign:ECDSA:digest-X962:SHA1")
    public static let ecdsaSignatureDigestX962SHA256 = SecKeyAlgorithm("algid:sign:ECDSA:digest-X962:SHA256")
    public static let ecdsaSignatureDigestX962SHA384 = SecKeyAlgorithm("algid:sign:ECDSA:digest-X962:SHA384")
    public static let ecdsaSignatureDigestX962SHA512 = SecKeyAlgorithm("algid:sign:ECDSA:digest-X962:SHA512")
    public static let ecdsaSignatureMessageX962SHA1 = SecKeyAlgorithm("algid:sign:ECDSA:message-X962:SHA1")
    public static let ecdsaSignatureMessageX962SHA256 = SecKeyAlgorithm("algid:sign:ECDSA:message-X962:SHA256")
    public static let ecdsaSignatureMessageX962SHA384 = SecKeyAlgorithm("algid:sign:ECDSA:message-X962:SHA384")
    public static let ecdsaSignatureMessageX962SHA512 = SecKeyAlgorithm("algid:sign:ECDSA:message-X962:SHA512")
    public static let ecdsaSignatureDigestRFC4754 = SecKeyAlgorithm("algid:sign:ECDSA:digest-RFC4754")
    public static let ecdsaSignatureDigestRFC4754SHA256 = SecKeyAlgorithm("algid:sign:ECDSA:digest-RFC4754:SHA256")
    public static let ecdsaSignatureDigestRFC4754SHA384 = SecKeyAlgorithm("algid:sign:ECDSA:digest-RFC4754:SHA384")
    public static let ecdsaSignatureDigestRFC4754SHA512 = SecKeyAlgorithm("algid:sign:ECDSA:digest-RFC4754:SHA512")
    public static let ecdsaSignatureMessageRFC4754SHA256 = SecKeyAlgorithm("algid:sign:ECDSA:message-RFC4754:SHA256")
    public static let ecdsaSignatureMessageRFC4754SHA384 = SecKeyAlgorithm("algid:sign:ECDSA:message-RFC4754:SHA384")
    public static let ecdsaSignatureMessageRFC4754SHA512 = SecKeyAlgorithm("algid:sign:ECDSA:message-RFC4754:SHA512")

    // ECIES:
    // https://developer.apple.com/documentation/security/seckeyalgorithm/eciesencryptionstandardvariableivx963sha256aesgcm
    public static let eciesEncryptionStandardX963SHA1AESGCM = SecKeyAlgorithm(
        "algid:encrypt:ECIES:ECDH:KDFX963:SHA1:AESGCM")
    public static let eciesEncryptionStandardX963SHA256AESGCM = SecKeyAlgorithm(
        "algid:encrypt:ECIES:ECDH:KDFX963:SHA256:AESGCM")
    public static let eciesEncryptionStandardX963SHA384AESGCM = SecKeyAlgorithm(
        "algid:encrypt:ECIES:ECDH:KDFX963:SHA384:AESGCM")
    public static let eciesEncryptionStandardX963SHA512AESGCM = SecKeyAlgorithm(
        "algid:encrypt:ECIES:ECDH:KDFX963:SHA512:AESGCM")
    public static let eciesEncryptionCofactorX963SHA1AESGCM = SecKeyAlgorithm(
        "algid:encrypt:ECIES:ECDHC:KDFX963:SHA1:AESGCM")
    public static let eciesEncryptionCofactorX963SHA256AESGCM = SecKeyAlgorithm(
        "algid:encrypt:ECIES:ECDHC:KDFX963:SHA256:AESGCM")
    public static let eciesEncryptionCofactorX963SHA384AESGCM = SecKeyAlgorithm(
        "algid:encrypt:ECIES:ECDHC:KDFX963:SHA384:AESGCM")
    public static let eciesEncryptionCofactorX963SHA512AESGCM = SecKeyAlgorithm(
        "algid:encrypt:ECIES:ECDHC:KDFX963:SHA512:AESGCM")
    public static let eciesEncryptionStandardVariableIVX963SHA224AESGCM = SecKeyAlgorithm(
        "algid:encrypt:ECIES:ECDH:KDFX963:SHA224:AESGCM-KDFIV")
    public static let eciesEncryptionStandardVariableIVX963SHA256AESGCM = SecKeyAlgorithm(
        "algid:encrypt:ECIES:ECDH:KDFX963:SHA256:AESGCM-KDFIV")
    public static let eciesEncryptionStandardVariableIVX963SHA384AESGCM = SecKeyAlgorithm(
        "algid:encrypt:ECIES:ECDH:KDFX963:SHA384:AESGCM-KDFIV")
    public static let eciesEncryptionStandardVariableIVX963SHA512AESGCM = SecKeyAlgorithm(
        "algid:encrypt:ECIES:ECDH:KDFX963:SHA512:AESGCM-KDFIV")
    public static let eciesEncryptionCofactorVariableIVX963SHA224AESGCM = SecKeyAlgorithm(
        "algid:encrypt:ECIES:ECDHC:KDFX963:SHA224:AESGCM-KDFIV")
    public static let eciesEncryptionCofactorVariableIVX963SHA256AESGCM = SecKeyAlgorithm(
        "algid:encrypt:ECIES:ECDHC:KDFX963:SHA256:AESGCM-KDFIV")
    public static let eciesEncryptionCofactorVariableIVX963SHA384AESGCM = SecKeyAlgorithm(
        "algid:encrypt:ECIES:ECDHC:KDFX963:SHA384:AESGCM-KDFIV")
    public static let eciesEncryptionCofactorVariableIVX963SHA512AESGCM = SecKeyAlgorithm(
        "algid:encrypt:ECIES:ECDHC:KDFX963:SHA512:AESGCM-KDFIV")

    // ECDH: https://developer.apple.com/documentation/security/seckeyalgorithm/ecdhkeyexchangestandard
    public static let ecdhKeyExchangeStandard = SecKeyAlgorithm("algid:keyexchange:ECDH")
    public static let ecdhKeyExchangeCofactor = SecKeyAlgorithm("algid:keyexchange:ECDHC")
    public static let ecdhKeyExchangeStandardX963SHA1 = SecKeyAlgorithm("algid:keyexchange:ECDH:KDFX963:SHA1")
    public static let ecdhKeyExchangeStandardX963SHA256 = SecKeyAlgorithm("algid:keyexchange:ECDH:KDFX963:SHA256")
    public static let ecdhKeyExchangeStandardX963SHA384 = SecKeyAlgorithm("algid:keyexchange:ECDH:KDFX963:SHA384")
    public static let ecdhKeyExchangeStandardX963SHA512 = SecKeyAlgorithm("algid:keyexchange:ECDH:KDFX963:SHA512")
    public static let ecdhKeyExchangeCofactorX963SHA1 = SecKeyAlgorithm("algid:keyexchange:ECDHC:KDFX963:SHA1")
    public static let ecdhKeyExchangeCofactorX963SHA256 = SecKeyAlgorithm("algid:keyexchange:ECDHC:KDFX963:SHA256")
    public static let ecdhKeyExchangeCofactorX963SHA384 = SecKeyAlgorithm("algid:keyexchange:ECDHC:KDFX963:SHA384")
    public static let ecdhKeyExchangeCofactorX963SHA512 = SecKeyAlgorithm("algid:keyexchange:ECDHC:KDFX963:SHA512")

    // RSA, named but unsupported:
    // https://developer.apple.com/documentation/security/seckeyalgorithm/rsasignaturemessagepkcs1v15sha256
    public static let rsaSignatureRaw = SecKeyAlgorithm("algid:sign:RSA:raw")
    public static let rsaSignatureDigestPKCS1v15Raw = SecKeyAlgorithm("algid:sign:RSA:digest-PKCS1v15")
    public static let rsaSignatureDigestPKCS1v15SHA256 = SecKeyAlgorithm("algid:sign:RSA:digest-PKCS1v15:SHA256")
    public static let rsaSignatureMessagePKCS1v15SHA1 = SecKeyAlgorithm("algid:sign:RSA:message-PKCS1v15:SHA1")
    public static let rsaSignatureMessagePKCS1v15SHA256 = SecKeyAlgorithm("algid:sign:RSA:message-PKCS1v15:SHA256")
    public static let rsaSignatureMessagePKCS1v15SHA512 = SecKeyAlgorithm("algid:sign:RSA:message-PKCS1v15:SHA512")
    public static let rsaSignatureDigestPSSSHA256 = SecKeyAlgorithm("algid:sign:RSA:digest-PSS:SHA256:SHA256:32")
    public static let rsaSignatureMessagePSSSHA256 = SecKeyAlgorithm("algid:sign:RSA:message-PSS:SHA256:SHA256:32")
    public static let rsaSignatureMessagePSSSHA512 = SecKeyAlgorithm("algid:sign:RSA:message-PSS:SHA512:SHA512:64")
    public static let rsaEncryptionRaw = SecKeyAlgorithm("algid:encrypt:RSA:raw")
    public static let rsaEncryptionPKCS1 = SecKeyAlgorithm("algid:encrypt:RSA:PKCS1")
    public static let rsaEncryptionOAEPSHA1 = SecKeyAlgorithm("algid:encrypt:RSA:OAEP:SHA1")
    public static let rsaEncryptionOAEPSHA256 = SecKeyAlgorithm("algid:encrypt:RSA:OAEP:SHA256")
    public static let rsaEncryptionOAEPSHA512 = SecKeyAlgorithm("algid:encrypt:RSA:OAEP:SHA512")
    public static let rsaEncryptionOAEPSHA256AESGCM = SecKeyAlgorithm("algid:encrypt:RSA:OAEP:KEYSHA256:AESGCM")

    /// What the algorithm does, read from its name.
    var operation: SecKeyOperation {
        let name = rawValue as String
        let parts = name.split(separator: ":").map(String.init)
        let hash = parts.compactMap(HashKind.init(name:)).first
        if parts.contains("RSA") { return .rsa }
        if name.hasPrefix("algid:sign:ECDSA") {
            return .sign(hash: hash, hashesMessage: name.contains("message-"), raw: name.contains("RFC4754"))
        }
        if name.hasPrefix("algid:encrypt:ECIES") {
            guard let hash else { return .unsupported }
            return .ecies(hash: hash, variableIV: name.hasSuffix("KDFIV"))
        }
        if name.hasPrefix("algid:keyexchange:ECDH") { return .keyExchange(hash: hash) }
        return .unsupported
    }
}

/// A digest an algorithm names.
enum HashKind: Sendable {
    case sha1, sha256, sha384, sha512

    init?(name: String) {
        switch name {
        case "SHA1": self = .sha1
        case "SHA256": self = .sha256
        case "SHA384": self = .sha384
        case "SHA512": self = .sha512
        default: return nil
        }
    }

    var byteCount: Int {
        switch self {
        case .sha1: 20
        case .sha256: 32
        case .sha384: 48
        case .sha512: 64
        }
    }

    /// The hash a digest of `byteCount` bytes was made with (for algorithms that sign any digest).
    init?(byteCount: Int) {
        switch byteCount {
        case 20: self = .sha1
        case 32: self = .sha256
        case 48: self = .sha384
        case 64: self = .sha512
        default: return nil
        }
    }
}

/// What an algorithm does with a key.
enum SecKeyOperation: Equatable {
    /// ECDSA: `hash` nil signs a digest of any supported length; `hashesMessage` hashes the input first; `raw` is the
    /// RFC 4754 form (r and s concatenated) rather than X9.62 DER.
    case sign(hash: HashKind?, hashesMessage: Bool, raw: Bool)
    case ecies(hash: HashKind, variableIV: Bool)
    case keyExchange(hash: HashKind?)
    case rsa
    case unsupported
}

/// What a key may be asked to do. https://developer.apple.com/documentation/security/seckeyoperationtype
public enum SecKeyOperationType: Int, Sendable {
    case sign = 0
    case verify = 1
    case encrypt = 2
    case decrypt = 3
    case keyExchange = 4
}
