import RichPushNetwork

/// The push server's certificate, from the same throwaway CA code as the fixture CDN.
enum ServerCertificates {
    /// A CA and a leaf certificate for `localhost`, 127.0.0.1 and ::1, plus the `--host` name when the server is
    /// bound to a name other than a loopback address.
    static func generate(host: String) throws -> FixtureCertificateAuthority {
        let name = certificateName(for: host)
        return try FixtureCertificateAuthority.generate(
            hostname: "localhost", additionalNames: name == "localhost" ? [] : [name])
    }

    /// The DNS name the certificate is for.
    static func certificateName(for host: String) -> String {
        let loopback = ["127.0.0.1", "::1", "localhost", "0.0.0.0", "::"]
        let isAddress = host.contains(":") || host.allSatisfy { $0.isNumber || $0 == "." }
        return loopback.contains(host) || isAddress ? "localhost" : host
    }
}
