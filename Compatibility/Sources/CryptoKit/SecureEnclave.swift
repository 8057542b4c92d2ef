import Crypto
import Foundation

/// The Secure Enclave, which richpush does not have: ``isAvailable`` is false, and making a key in it throws, as
/// CryptoKit does on a device without one, so code that checks first takes its software path.
/// https://developer.apple.com/documentation/cryptokit/secureenclave
public enum SecureEnclave {
    /// False under richpush. https://developer.apple.com/documentation/cryptokit/secureenclave/isavailable
    public static var isAvailable: Bool { false }

    /// P-256 keys held by the Secure Enclave. https://developer.apple.com/documentation/cryptokit/secureenclave/p256
    public enum P256 {
        /// https://developer.apple.com/documentation/cryptokit/secureenclave/p256/signing
        public enum Signing {
            /// https://developer.apple.com/documentation/cryptokit/secureenclave/p256/signing/privatekey
            public struct PrivateKey: Sendable {
                /// Throws: there is no Secure Enclave.
                /// https://developer.apple.com/documentation/cryptokit/secureenclave/p256/signing/privatekey/init(compactrepresentable:accesscontrol:authenticationcontext:)
                public init(compactRepresentable: Bool = true) throws {
                    throw CryptoKitError.underlyingCoreCryptoError(error: errSecUnimplementedStatus)
                }

                /// Throws: a key blob of another device's Secure Enclave cannot be used here.
                /// https://developer.apple.com/documentation/cryptokit/secureenclave/p256/signing/privatekey/init(datarepresentation:authenticationcontext:)
                public init(dataRepresentation: Data) throws {
                    throw CryptoKitError.underlyingCoreCryptoError(error: errSecUnimplementedStatus)
                }

                /// https://developer.apple.com/documentation/cryptokit/secureenclave/p256/signing/privatekey/publickey
                public var publicKey: Crypto.P256.Signing.PublicKey { fatalError("no Secure Enclave key exists") }

                /// https://developer.apple.com/documentation/cryptokit/secureenclave/p256/signing/privatekey/datarepresentation
                public var dataRepresentation: Data { fatalError("no Secure Enclave key exists") }
            }
        }

        /// https://developer.apple.com/documentation/cryptokit/secureenclave/p256/keyagreement
        public enum KeyAgreement {
            /// https://developer.apple.com/documentation/cryptokit/secureenclave/p256/keyagreement/privatekey
            public struct PrivateKey: Sendable {
                /// Throws: there is no Secure Enclave.
                public init(compactRepresentable: Bool = true) throws {
                    throw CryptoKitError.underlyingCoreCryptoError(error: errSecUnimplementedStatus)
                }

                /// Throws: a key blob of another device's Secure Enclave cannot be used here.
                public init(dataRepresentation: Data) throws {
                    throw CryptoKitError.underlyingCoreCryptoError(error: errSecUnimplementedStatus)
                }

                public var publicKey: Crypto.P256.KeyAgreement.PublicKey { fatalError("no Secure Enclave key exists") }

                public var dataRepresentation: Data { fatalError("no Secure Enclave key exists") }
            }
        }
    }
}

/// Security's `errSecUnimplemented`, the status CryptoKit reports for a Secure Enclave operation without one.
private let errSecUnimplementedStatus: Int32 = -4
