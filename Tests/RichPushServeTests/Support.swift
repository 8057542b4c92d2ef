import Crypto
import Foundation
import RichPushServe

/// A real ES256 provider token, built here from its parts rather than by the code under test.
struct TestJWT {
    var header: String = #"{"alg":"ES256","kid":"ABC123DEFG"}"#
    var claims: String
    var key: P256.Signing.PrivateKey
    var derSignature = false

    init(issuedAt: Date = Date(), teamID: String = "DEF123GHIJ", key: P256.Signing.PrivateKey = TestKeys.key) {
        claims = #"{"iss":"\#(teamID)","iat":\#(Int(issuedAt.timeIntervalSince1970))}"#
        self.key = key
    }

    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    var token: String {
        let signingInput = "\(Self.base64URL(Data(header.utf8))).\(Self.base64URL(Data(claims.utf8)))"
        let signature = try! key.signature(for: Data(signingInput.utf8))
        let bytes = derSignature ? signature.derRepresentation : signature.rawRepresentation
        return "\(signingInput).\(Self.base64URL(bytes))"
    }

    var authorization: String { "bearer \(token)" }
}

enum TestKeys {
    static let key = P256.Signing.PrivateKey()
    static let otherKey = P256.Signing.PrivateKey()
    static let keyID = "ABC123DEFG"
    static let teamID = "DEF123GHIJ"
    static var signingKey: ProviderTokenVerifier.SigningKey {
        try! ProviderTokenVerifier.SigningKey(p8: key.pemRepresentation, keyID: keyID, teamID: teamID)
    }
}

let testToken = String(repeating: "ab", count: 32)
let testBundleID = "com.example.shop"
