// CryptoKit as far as a Notification Service Extension uses it on iOS: swift-crypto's `Crypto` is CryptoKit's API on
// Linux (SHA-2, HMAC, HKDF, AES-GCM, ChaChaPoly, P-256/384/521 and Curve25519 signing and key agreement, HPKE, the
// `Insecure` digests), so it is re-exported whole. What swift-crypto leaves out is here: `SecureEnclave`, which
// reports itself unavailable. https://developer.apple.com/documentation/cryptokit
@_exported import Crypto
