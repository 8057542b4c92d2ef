import Foundation
import RichPushFiles

/// What an extension's process runs in: a private user, mount and PID namespace with its own /proc (`unshare -Urm
/// --pid --fork --kill-child --mount-proc`), where
/// - the extension is the namespace's first process, so when it ends, however it ends, the kernel ends every process
///   it started (a process in a session of its own included), and nothing it started outlives its notification;
/// - `unshare` ends with it, and it with `unshare` (`--kill-child`), whose own parent-death signal ties both to
///   richpush: richpush killed with SIGKILL leaves no extension process behind;
/// - with the fixture CDN, a bundle with the CDN's CA is bind-mounted over `/etc/ssl/certs/ca-certificates.crt`, the
///   file libcurl reads (Foundation's URLSession on Linux is libcurl, which reads no CA variable): the extension
///   trusts the CDN, the system's trust store is untouched, nothing else on the machine sees the change. Every other
///   host is still checked against the system's store: libcurl also looks issuers up in `/etc/ssl/certs` by their
///   OpenSSL hash (its CA path), so where that folder is hashed the bundle holds the CA alone; elsewhere it holds the
///   system's certificates too. A bundle is parsed whole for every new TLS session, and the system's 140
///   certificates cost an extension 26 ms per URLSession here (`perf`: libcrypto's PEM decoding and malloc, 77% of
///   a reused process's time), where iOS's trust store costs nothing per session.
///
/// It isolates processes and that one file, not the network: there is no network namespace, so the extension's
/// traffic reaches the proxy only because URLSession honours `https_proxy`; a client that ignores it goes direct.
///
/// Where namespaces are not allowed (a container without user namespaces, a kernel that forbids them), the extension
/// runs without one: its parent-death signal and its host's exit at the end of its standard input still end the
/// extension with richpush, but not processes it started in a session of their own, and its requests to the fixture
/// CDN fail certificate checks; the run says so.
struct ExtensionSandbox: Sendable {
    /// The file libcurl reads.
    static let systemBundle = "/etc/ssl/certs/ca-certificates.crt"
    /// The folder libcurl looks issuers up in, by subject hash (`5ad8a5d6.0`), besides the bundle.
    static let systemCAPath = "/etc/ssl/certs"

    /// Whether ``systemCAPath`` holds hash links for libcurl to find the system's certificates by.
    static func systemStoreIsHashed(_ folder: String = systemCAPath) -> Bool {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.contains { name in
            let parts = name.split(separator: ".")
            return parts.count == 2 && parts[0].count == 8 && parts[0].allSatisfy(\.isHexDigit)
                && parts[1].allSatisfy(\.isNumber) && FileNode.exists(folder + "/" + name)
        }
    }

    /// The bundle to mount over ``systemBundle``: the CA (and the system's certificates where ``systemCAPath`` is not
    /// hashed); nil without a fixture CDN.
    let bundle: String?

    /// Checks that this machine lets richpush make the namespaces and, for a fixture CDN, writes the bundle into
    /// `folder`; throws the reason it cannot (the sentence the run reports).
    static func prepare(caCertificatePEM: String?, in folder: String) async throws(Unavailable) -> ExtensionSandbox {
        var bundle: String?
        if let caCertificatePEM {
            guard FileNode.exists(systemBundle) else {
                throw Unavailable(reason: "\(systemBundle) does not exist on this machine", affectsTrust: true)
            }
            let path = folder + "/ca-bundle.crt"
            do {
                let system = systemStoreIsHashed() ? "" : try String(contentsOfFile: systemBundle, encoding: .utf8)
                try (system + "\n" + caCertificatePEM + "\n").write(toFile: path, atomically: false, encoding: .utf8)
            } catch {
                throw Unavailable(
                    reason: "cannot write the CA bundle in \(folder): \(error.localizedDescription)", affectsTrust: true
                )
            }
            bundle = path
        }
        let sandbox = ExtensionSandbox(bundle: bundle)
        let probe = sandbox.wrap(["/bin/true"])
        let (status, said) = await ExtensionBuilder.run(probe[0], Array(probe.dropFirst()))
        guard status == 0 else {
            let reason = said.split(separator: "\n").first.map(String.init) ?? "status \(status)"
            throw Unavailable(
                reason: "private user, mount and PID namespaces are not allowed here (\(reason))",
                affectsTrust: caCertificatePEM != nil)
        }
        return sandbox
    }

    /// The command line that runs `command` inside the namespaces, with the bundle mounted when there is one.
    func wrap(_ command: [String]) -> [String] {
        // The namespace's own /proc (`--mount-proc`): libdispatch on Linux watches its worker threads through
        // /proc/<tid>/stat, with the thread ids of the namespace; the machine's /proc answered for other threads
        // (a kernel worker's state) and libdispatch trapped (SIGILL, 8 of 2,000 notifications in `concurrent`).
        let unshare = [
            "/usr/bin/unshare", "--user", "--map-root-user", "--mount", "--pid", "--fork", "--kill-child",
            "--mount-proc",
        ]
        guard let bundle else { return unshare + command }
        return unshare + [
            "/bin/sh", "-c", "mount --bind \"$0\" \(Self.systemBundle) && exec \"$@\"", bundle,
        ] + command
    }

    struct Unavailable: Error, CustomStringConvertible {
        let reason: String
        /// Whether the extension's requests to the fixture CDN will fail certificate checks because of it.
        let affectsTrust: Bool
        var description: String { reason }
    }
}
