import Foundation
import RichPushNetwork
import Testing
import SwiftASN1
import X509

@Suite struct CertificateAuthorityTests {
    @Test func theLeafNamesItsHostsAndBothLoopbackAddresses() throws {
        let authority = try FixtureCertificateAuthority.generate(hostname: "localhost", additionalNames: ["push.test"])
        let leaf = try Certificate(pemEncoded: authority.leafCertificatePEM)
        let names = try #require(try leaf.extensions.subjectAlternativeNames)
        var dnsNames: [String] = []
        var addresses: [[UInt8]] = []
        for name in names {
            switch name {
            case .dnsName(let dns): dnsNames.append(dns)
            case .ipAddress(let bytes): addresses.append(Array(bytes.bytes))
            default: break
            }
        }
        #expect(dnsNames == ["localhost", "push.test"])
        #expect(addresses.contains([127, 0, 0, 1]))
        #expect(addresses.contains([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]), "::1")
        let ca = try Certificate(pemEncoded: authority.caCertificatePEM)
        #expect(leaf.issuer == ca.subject)
    }
}
