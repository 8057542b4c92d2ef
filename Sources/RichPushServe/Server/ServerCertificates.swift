import RichPushNetwork

/// The push server's certificate, from the same throwaway CA code as the fixture CDN.
enum ServerCertificates {
    /// A CA and a leaf certificate for `localhost` and 127.0.0.1, or for the `--host` name and 127.0.0.1 when
    /// the server is bound to a name other than a loopback address.
    static func generate(host: String) throws -> FixtureCertificateAuthority {
        try FixtureCertificateAuthority.generate(hostname: certificateName(for: host))
    }

    /// The DNS name the certificate is for.
    static func certificateName(for host: String) -> String {
        let loopback = ["127.0.0.1", "::1", "localhost", "0.0.0.0", "::"]
        let isAddress = host.contains(":") || host.allSatisfy { $0.isNumber || $0 == "." }
        return loopback.contains(host) || isAddress ? "localhost" : host
    }
}
