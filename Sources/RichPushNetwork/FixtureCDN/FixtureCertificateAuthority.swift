import Crypto
import NIOCore
public import Foundation
public import NIOSSL
import SwiftASN1
import X509

/// A throwaway certificate authority and server certificate for the fixture CDN, generated in memory at start.
///
/// The CA (P-256, valid from an hour ago for 30 days) signs one leaf certificate with the subject alternative
/// names `fixtures.richpush.test`, `127.0.0.1` and `::1`. Nothing is written to disk except what a caller asks for
/// (``caCertificatePEM`` for `--ca-out`); no private key ever leaves the process.
public struct FixtureCertificateAuthority: Sendable {
    /// The CA certificate in PEM, the only trust root a fixture client needs (`curl --cacert`).
    public let caCertificatePEM: String
    /// The server certificate in PEM.
    public let leafCertificatePEM: String
    /// The DNS name in the server certificate.
    public let hostname: String
    private let leafPrivateKeyPEM: String

    /// Generates a fresh CA and a leaf certificate for `hostname`, any `additionalNames`, 127.0.0.1 and ::1.
    public static func generate(
        hostname: String = FixtureCDN.host, additionalNames: [String] = [], now: Date = Date()
    ) throws -> FixtureCertificateAuthority {
        let notBefore = now.addingTimeInterval(-3600)
        let notAfter = now.addingTimeInterval(30 * 24 * 3600)

        let caKey = P256.Signing.PrivateKey()
        let caPrivateKey = Certificate.PrivateKey(caKey)
        let caName = try DistinguishedName {
            OrganizationName("richpush")
            CommonName("richpush fixture CA (generated \(ISO8601DateFormatter().string(from: now)))")
        }
        let caKeyIdentifier = SubjectKeyIdentifier(hash: caPrivateKey.publicKey)
        let ca = try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(),
            publicKey: caPrivateKey.publicKey,
            notValidBefore: notBefore,
            notValidAfter: notAfter,
            issuer: caName,
            subject: caName,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
                caKeyIdentifier
            },
            issuerPrivateKey: caPrivateKey
        )

        let leafKey = P256.Signing.PrivateKey()
        let leafPrivateKey = Certificate.PrivateKey(leafKey)
        let leafName = try DistinguishedName {
            OrganizationName("richpush")
            CommonName(hostname)
        }
        let leaf = try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(),
            publicKey: leafPrivateKey.publicKey,
            notValidBefore: notBefore,
            notValidAfter: notAfter,
            issuer: caName,
            subject: leafName,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
                try ExtendedKeyUsage([.serverAuth])
                SubjectKeyIdentifier(hash: leafPrivateKey.publicKey)
                AuthorityKeyIdentifier(keyIdentifier: caKeyIdentifier.keyIdentifier)
                SubjectAlternativeNames(
                    ([hostname] + additionalNames.filter { $0 != hostname }).map { .dnsName($0) } + [
                        .ipAddress(ASN1OctetString(contentBytes: [127, 0, 0, 1])),
                        .ipAddress(ASN1OctetString(contentBytes: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1])),
                    ])
            },
            issuerPrivateKey: caPrivateKey
        )

        return FixtureCertificateAuthority(
            caCertificatePEM: try ca.serializeAsPEM().pemString,
            leafCertificatePEM: try leaf.serializeAsPEM().pemString,
            hostname: hostname,
            leafPrivateKeyPEM: leafKey.pemRepresentation
        )
    }

    /// TLS configuration for the server: the leaf certificate (and CA, as a chain) with its private key.
    public func serverTLSConfiguration() throws -> TLSConfiguration {
        let leaf = try NIOSSLCertificate(bytes: Array(leafCertificatePEM.utf8), format: .pem)
        let ca = try NIOSSLCertificate(bytes: Array(caCertificatePEM.utf8), format: .pem)
        let key = try NIOSSLPrivateKey(bytes: Array(leafPrivateKeyPEM.utf8), format: .pem)
        var configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: [.certificate(leaf), .certificate(ca)],
            privateKey: .privateKey(key)
        )
        configuration.applicationProtocols = ["http/1.1"]
        // Closing a connection waits for the client's close_notify at most this long (default 5 s), so a client
        // that just drops the connection cannot hold up the CDN's shutdown. On loopback a client that answers does
        // so within microseconds; with 250 ms, one replay in six waited that long at exit, for connections the
        // downloader's pool had closed just before the CDN stopped.
        configuration.shutdownTimeout = .milliseconds(10)
        return configuration
    }

}
