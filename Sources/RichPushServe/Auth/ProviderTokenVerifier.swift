import Synchronization
public import Crypto
public import Foundation
import RichPushCore

/// Checks the provider token of an APNs request (`authorization: bearer <JWT>`) as APNs does: an ES256 JSON Web
/// Token whose header names the key (`kid`, 10 characters) and whose claims name the team (`iss`) and the time it
/// was issued (`iat`, at most an hour ago).
///
/// With the team's signing key (an `AuthKey_KEYID.p8` file) the signature is verified, in either form providers
/// send it: the raw 64-byte R‖S of JWS, or DER. Without a key only the structure and age are checked, and the
/// check says the signature was not verified.
public struct ProviderTokenVerifier: Sendable {
    /// The signing key a token must be signed with, and the key and team IDs it must name.
    public struct SigningKey: Sendable {
        public var publicKey: P256.Signing.PublicKey
        public var keyID: String
        public var teamID: String

        public init(publicKey: P256.Signing.PublicKey, keyID: String, teamID: String) {
            self.publicKey = publicKey
            self.keyID = keyID
            self.teamID = teamID
        }

        /// Reads an `AuthKey_KEYID.p8` file (a PKCS #8 PEM P-256 private key) and keeps its public half.
        public init(p8 pem: String, keyID: String, teamID: String) throws {
            self.init(
                publicKey: try P256.Signing.PrivateKey(pemRepresentation: pem).publicKey, keyID: keyID, teamID: teamID)
        }
    }

    /// A token APNs would accept.
    public struct Accepted: Sendable, Equatable {
        public var keyID: String
        public var teamID: String
        /// Seconds since 1970 the token says it was issued at.
        public var issuedAt: Double
        public var signatureVerified: Bool

        /// `signature verified` or `signature not verified (no --auth-key)`, for results.
        public var summary: String {
            signatureVerified
                ? "ES256 token of team \(teamID), key \(keyID): signature verified"
                : "ES256 token of team \(teamID), key \(keyID): signature not verified (no --auth-key)"
        }
    }

    /// Why a token is refused: the APNs reason and a sentence for the tester.
    public struct Refusal: Error, Sendable, Equatable {
        public var reason: APNsReason
        public var detail: String
    }

    /// Tokens older than this are expired.
    public static let maxAge: Double = 3600

    public var signingKey: SigningKey?
    /// Tokens whose structure (and signature, with a key) were checked already: providers send one token for up
    /// to an hour, so only its age is checked again. Shared by the copies of this verifier.
    private let checked = CheckedTokens()

    public init(signingKey: SigningKey? = nil) {
        self.signingKey = signingKey
    }

    /// Checks the `authorization` header's value (nil when the request has none) at `now`.
    public func check(authorization: String?, now: Date = Date()) throws(Refusal) -> Accepted {
        guard let authorization, !authorization.isEmpty else {
            throw Refusal(reason: .missingProviderToken, detail: "no authorization header with a bearer token")
        }
        let parts = authorization.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else {
            throw invalid("the authorization header is not \"bearer <JWT>\"")
        }
        let token = parts[1].trimmingCharacters(in: .whitespaces)
        if let accepted = checked.lookup(token) {
            try checkAge(of: accepted, now: now)
            return accepted
        }
        let segments = token.split(separator: ".", omittingEmptySubsequences: false)
        guard segments.count == 3 else { throw invalid("not a JWT: \(segments.count) parts instead of 3") }
        guard let header = Self.jsonObject(segments[0]) else { throw invalid("the JWT header is not base64url JSON") }
        guard let claims = Self.jsonObject(segments[1]) else { throw invalid("the JWT claims are not base64url JSON") }

        guard header["alg"]?.stringValue == "ES256" else {
            throw invalid("alg is \(Self.describe(header["alg"])), APNs requires ES256")
        }
        guard let keyID = header["kid"]?.stringValue, keyID.count == 10 else {
            throw invalid("kid is \(Self.describe(header["kid"])), APNs requires a 10-character key ID")
        }
        guard let teamID = claims["iss"]?.stringValue, !teamID.isEmpty else {
            throw invalid("no iss claim (the 10-character team ID)")
        }
        guard let issuedAt = claims["iat"]?.numberValue else {
            throw invalid("no iat claim (the time the token was issued, in seconds since 1970)")
        }

        var verified = false
        if let signingKey {
            guard keyID == signingKey.keyID else {
                throw invalid("kid \(keyID) is not the key ID given with --key-id (\(signingKey.keyID))")
            }
            guard teamID == signingKey.teamID else {
                throw invalid("iss \(teamID) is not the team ID given with --team-id (\(signingKey.teamID))")
            }
            guard let signatureBytes = Self.base64URLDecode(segments[2]) else {
                throw invalid("the signature is not base64url")
            }
            let signed = Data("\(segments[0]).\(segments[1])".utf8)
            guard Self.verify(signatureBytes, of: signed, with: signingKey.publicKey) else {
                throw invalid("the ES256 signature does not verify with the key of --auth-key")
            }
            verified = true
        }

        let accepted = Accepted(keyID: keyID, teamID: teamID, issuedAt: issuedAt, signatureVerified: verified)
        try checkAge(of: accepted, now: now)
        checked.remember(token, accepted)
        return accepted
    }

    private func checkAge(of accepted: Accepted, now: Date) throws(Refusal) {
        let age = now.timeIntervalSince1970 - accepted.issuedAt
        if age > Self.maxAge {
            throw Refusal(
                reason: .expiredProviderToken,
                detail: "iat is \(Int(age)) s ago; APNs refuses tokens issued more than an hour ago")
        }
    }

    private func invalid(_ detail: String) -> Refusal {
        Refusal(reason: .invalidProviderToken, detail: detail)
    }

    /// Raw R‖S (64 bytes, as JWS sends it) or DER, as some libraries send it.
    static func verify(_ signature: Data, of message: Data, with key: P256.Signing.PublicKey) -> Bool {
        if signature.count == 64, let raw = try? P256.Signing.ECDSASignature(rawRepresentation: signature),
            key.isValidSignature(raw, for: message)
        {
            return true
        }
        if let der = try? P256.Signing.ECDSASignature(derRepresentation: signature) {
            return key.isValidSignature(der, for: message)
        }
        return false
    }

    static func jsonObject(_ segment: Substring) -> JSONObject? {
        guard let bytes = base64URLDecode(segment), let value = try? JSONParser.parse(bytes) else { return nil }
        return value.objectValue
    }

    static func base64URLDecode(_ segment: Substring) -> Data? {
        var text = segment.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        guard !text.contains("=") || text.count % 4 == 0 else { return nil }
        while text.count % 4 != 0 { text += "=" }
        return Data(base64Encoded: text)
    }

    static func base64URLEncode(_ data: some DataProtocol) -> String {
        Data(data).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    private static func describe(_ value: JSONValue?) -> String {
        switch value {
        case nil: "missing"
        case .string(let text)?: "\"\(text.prefix(40))\""
        case let other?: other.typeName
        }
    }
}

/// Makes ES256 provider tokens, for `richpush push` and tests.
public struct ProviderTokenSigner: Sendable {
    public var privateKey: P256.Signing.PrivateKey
    public var keyID: String
    public var teamID: String

    public init(privateKey: P256.Signing.PrivateKey, keyID: String, teamID: String) {
        self.privateKey = privateKey
        self.keyID = keyID
        self.teamID = teamID
    }

    /// A token issued at `issuedAt`, its signature in JWS's raw R‖S form, or DER when `derSignature` is set.
    public func token(issuedAt: Date = Date(), derSignature: Bool = false) throws -> String {
        let headerJSON = JSONWriter.string(["alg": "ES256", "kid": .string(keyID)])
        let claimsJSON = JSONWriter.string([
            "iss": .string(teamID), "iat": .number(issuedAt.timeIntervalSince1970.rounded(.down)),
        ])
        let header = ProviderTokenVerifier.base64URLEncode(Data(headerJSON.utf8))
        let claims = ProviderTokenVerifier.base64URLEncode(Data(claimsJSON.utf8))
        let signature = try privateKey.signature(for: Data("\(header).\(claims)".utf8))
        let signatureBytes = derSignature ? signature.derRepresentation : signature.rawRepresentation
        return "\(header).\(claims).\(ProviderTokenVerifier.base64URLEncode(signatureBytes))"
    }
}

/// The few provider tokens seen lately that passed every check but their age.
private final class CheckedTokens: Sendable {
    private static let capacity = 64
    private let tokens = Mutex<[String: ProviderTokenVerifier.Accepted]>([:])

    func lookup(_ token: String) -> ProviderTokenVerifier.Accepted? {
        tokens.withLock { $0[token] }
    }

    func remember(_ token: String, _ accepted: ProviderTokenVerifier.Accepted) {
        tokens.withLock { tokens in
            if tokens.count >= Self.capacity { tokens.removeAll() }
            tokens[token] = accepted
        }
    }
}
