import Crypto
import Foundation
import RichPushServe
import RichPushServeTestSupport
import Testing

@Suite("Provider tokens")
struct ProviderTokenTests {
    static let verifying = ProviderTokenVerifier(signingKey: TestKeys.signingKey)
    static let structural = ProviderTokenVerifier()

    static func refusal(_ authorization: String?, _ verifier: ProviderTokenVerifier = verifying) -> String? {
        do {
            _ = try verifier.check(authorization: authorization)
            return nil
        } catch {
            return error.reason.rawValue
        }
    }

    @Test("a token signed with the --auth-key is verified, in raw R||S and in DER form")
    func verified() throws {
        var jwt = TestJWT()
        let raw = try Self.verifying.check(authorization: jwt.authorization)
        #expect(raw.signatureVerified && raw.keyID == TestKeys.keyID && raw.teamID == TestKeys.teamID)
        #expect(raw.summary.contains("signature verified"))
        jwt.derSignature = true
        #expect(try Self.verifying.check(authorization: jwt.authorization).signatureVerified)
    }

    @Test("a token signed with another key, or tampered with, is InvalidProviderToken")
    func wrongSignature() {
        #expect(Self.refusal(TestJWT(key: TestKeys.otherKey).authorization) == "InvalidProviderToken")
        let token = TestJWT().token
        let parts = token.split(separator: ".")
        let otherClaims = TestJWT.base64URL(
            Data(#"{"iss":"DEF123GHIJ","iat":\#(Int(Date().timeIntervalSince1970) - 5)}"#.utf8))
        #expect(Self.refusal("bearer \(parts[0]).\(otherClaims).\(parts[2])") == "InvalidProviderToken")
        // Without a key, the same tampered token passes the structural check, and says it was not verified.
        let unverified = try? Self.structural.check(authorization: "bearer \(parts[0]).\(otherClaims).\(parts[2])")
        #expect(unverified?.signatureVerified == false)
        #expect(unverified?.summary.contains("signature not verified") == true)
    }

    @Test("the key ID and team ID must be the ones given with --key-id and --team-id")
    func wrongIDs() {
        var jwt = TestJWT(teamID: "OTHERTEAM1")
        #expect(Self.refusal(jwt.authorization) == "InvalidProviderToken")
        jwt = TestJWT()
        jwt.header = #"{"alg":"ES256","kid":"ZZZ123DEFG"}"#
        #expect(Self.refusal(jwt.authorization) == "InvalidProviderToken")
    }

    @Test(
        "malformed tokens are InvalidProviderToken, with or without a key",
        arguments: [
            "bearer not-a-jwt", "basic dXNlcjpwYXNz", "bearer a.b.c", "bearer",
        ])
    func malformed(authorization: String) {
        #expect(Self.refusal(authorization) == "InvalidProviderToken")
        #expect(Self.refusal(authorization, Self.structural) == "InvalidProviderToken")
    }

    @Test(
        "alg not ES256, kid not 10 characters, no iss, no iat: InvalidProviderToken",
        arguments: [
            (#"{"alg":"HS256","kid":"ABC123DEFG"}"#, #"{"iss":"DEF123GHIJ","iat":NOW}"#),
            (#"{"alg":"ES256","kid":"ABC123"}"#, #"{"iss":"DEF123GHIJ","iat":NOW}"#),
            (#"{"alg":"ES256"}"#, #"{"iss":"DEF123GHIJ","iat":NOW}"#),
            (#"{"alg":"ES256","kid":"ABC123DEFG"}"#, #"{"iat":NOW}"#),
            (#"{"alg":"ES256","kid":"ABC123DEFG"}"#, #"{"iss":"DEF123GHIJ"}"#),
        ])
    func badClaims(header: String, claims: String) {
        var jwt = TestJWT()
        jwt.header = header
        jwt.claims = claims.replacingOccurrences(of: "NOW", with: "\(Int(Date().timeIntervalSince1970))")
        #expect(Self.refusal(jwt.authorization, Self.structural) == "InvalidProviderToken")
    }

    @Test("no authorization header is MissingProviderToken")
    func missing() {
        #expect(Self.refusal(nil) == "MissingProviderToken")
        #expect(Self.refusal("", Self.structural) == "MissingProviderToken")
    }

    @Test("a token issued more than an hour ago is ExpiredProviderToken; 59 minutes is fine")
    func expired() throws {
        let old = TestJWT(issuedAt: Date().addingTimeInterval(-3601 - 60))
        #expect(Self.refusal(old.authorization) == "ExpiredProviderToken")
        #expect(Self.refusal(old.authorization, Self.structural) == "ExpiredProviderToken")
        let recent = TestJWT(issuedAt: Date().addingTimeInterval(-59 * 60))
        #expect(Self.refusal(recent.authorization) == nil)
    }

    @Test("a token accepted once is still refused when it grows older than an hour, and a forged twin is not let in")
    func acceptedTokensAreRecheckedForAge() throws {
        let verifier = ProviderTokenVerifier(signingKey: TestKeys.signingKey)
        let jwt = TestJWT(issuedAt: Date().addingTimeInterval(-50 * 60))
        #expect(try verifier.check(authorization: jwt.authorization).signatureVerified)
        // The same token again, later: served from the checked tokens, but its age is judged anew.
        #expect(throws: ProviderTokenVerifier.Refusal.self) {
            try verifier.check(authorization: jwt.authorization, now: Date().addingTimeInterval(11 * 60))
        }
        // The same claims signed with another key are a different token, checked in full.
        let forged = TestJWT(issuedAt: Date().addingTimeInterval(-50 * 60), key: TestKeys.otherKey)
        #expect(Self.refusal(forged.authorization, verifier) == "InvalidProviderToken")
    }

    @Test("the signer richpush push uses makes tokens the verifier accepts")
    func signer() throws {
        let signer = ProviderTokenSigner(privateKey: TestKeys.key, keyID: TestKeys.keyID, teamID: TestKeys.teamID)
        #expect(try Self.verifying.check(authorization: "bearer \(signer.token())").signatureVerified)
        #expect(try Self.verifying.check(authorization: "bearer \(signer.token(derSignature: true))").signatureVerified)
    }

    @Test("an AuthKey .p8 file that is not a P-256 key is refused")
    func badP8() {
        #expect(throws: (any Error).self) {
            try ProviderTokenVerifier.SigningKey(
                p8: "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----", keyID: "K", teamID: "T")
        }
    }
}
