import Foundation
import RichPushFiles

/// How an extension's unmodified URLSession comes to trust the fixture CDN: Foundation's URLSession on Linux is
/// libcurl, which reads its CA bundle from `/etc/ssl/certs/ca-certificates.crt` and no variable. Each extension
/// process runs in a private user and mount namespace (`unshare -Urm`) where a bundle made of the system's
/// certificates plus the fixture CDN's CA is bind-mounted over that file: the extension trusts the CDN, the
/// system's trust store is untouched, and nothing else on the machine sees the change.
///
/// Where namespaces are not allowed (a container without user namespaces, a kernel that forbids them) the
/// extension runs without it and its requests to the fixture CDN fail certificate checks; the run says so.
struct TrustedNamespace: Sendable {
    /// The file libcurl reads.
    static let systemBundle = "/etc/ssl/certs/ca-certificates.crt"

    /// The bundle to mount: the system's certificates and the CA.
    let bundle: String

    /// Writes the bundle into `folder` and checks that this machine lets richpush mount it in a namespace; throws
    /// the reason it cannot (the sentence the run reports).
    static func prepare(caCertificatePEM: String, in folder: String) async throws(Unavailable) -> TrustedNamespace {
        guard FileNode.exists(systemBundle) else {
            throw Unavailable(reason: "\(systemBundle) does not exist on this machine")
        }
        let bundle = folder + "/ca-bundle.crt"
        do {
            let system = try String(contentsOfFile: systemBundle, encoding: .utf8)
            try (system + "\n" + caCertificatePEM + "\n").write(toFile: bundle, atomically: false, encoding: .utf8)
        } catch {
            throw Unavailable(reason: "cannot write the CA bundle in \(folder): \(error.localizedDescription)")
        }
        let namespace = TrustedNamespace(bundle: bundle)
        let probe = namespace.wrap(["/bin/true"])
        let (status, said) = await ExtensionBuilder.run(probe[0], Array(probe.dropFirst()))
        guard status == 0 else {
            let reason = said.split(separator: "\n").first.map(String.init) ?? "status \(status)"
            throw Unavailable(reason: "a private user and mount namespace is not allowed here (\(reason))")
        }
        return namespace
    }

    /// The command line that runs `command` inside the namespace with the bundle mounted.
    func wrap(_ command: [String]) -> [String] {
        [
            "/usr/bin/unshare", "-Urm", "/bin/sh", "-c",
            "mount --bind \"$0\" \(Self.systemBundle) && exec \"$@\"", bundle,
        ] + command
    }

    struct Unavailable: Error, CustomStringConvertible {
        let reason: String
        var description: String { reason }
    }
}
