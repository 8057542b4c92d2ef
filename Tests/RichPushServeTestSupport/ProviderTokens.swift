public import Crypto
public import Foundation
public import RichPushServe

/// A real ES256 provider token, built here from its parts rather than by the code under test.
public struct TestJWT {
    public var header: String = #"{"alg":"ES256","kid":"ABC123DEFG"}"#
    public var claims: String
    public var key: P256.Signing.PrivateKey
    public var derSignature = false

    public init(issuedAt: Date = Date(), teamID: String = "DEF123GHIJ", key: P256.Signing.PrivateKey = TestKeys.key) {
        claims = #"{"iss":"\#(teamID)","iat":\#(Int(issuedAt.timeIntervalSince1970))}"#
        self.key = key
    }

    public static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    public var token: String {
        let signingInput = "\(Self.base64URL(Data(header.utf8))).\(Self.base64URL(Data(claims.utf8)))"
        let signature = try! key.signature(for: Data(signingInput.utf8))
        let bytes = derSignature ? signature.derRepresentation : signature.rawRepresentation
        return "\(signingInput).\(Self.base64URL(bytes))"
    }

    public var authorization: String { "bearer \(token)" }
}

public enum TestKeys {
    public static let key = P256.Signing.PrivateKey()
    public static let otherKey = P256.Signing.PrivateKey()
    public static let keyID = "ABC123DEFG"
    public static let teamID = "DEF123GHIJ"
    public static var signingKey: ProviderTokenVerifier.SigningKey {
        try! ProviderTokenVerifier.SigningKey(p8: key.pemRepresentation, keyID: keyID, teamID: teamID)
    }
}

public let testToken = String(repeating: "ab", count: 32)
public let testBundleID = "com.example.shop"
