import ArgumentParser
import Foundation
import RichPushServe

/// `--auth-key FILE --key-id K --team-id T`, the team's provider-token key, as `serve`, the notification center
/// (which verify signatures with it) and `push` (which signs with it) take it.
struct ProviderKeyOptions: ParsableArguments {
    @Option(
        name: .customLong("auth-key"),
        help: ArgumentHelp(
            "The team's AuthKey_KEYID.p8 (with --key-id and --team-id): the push endpoint verifies provider token signatures with it, `richpush push` signs with it.",
            valueName: "FILE"))
    var authKey: String?

    @Option(name: .customLong("key-id"), help: ArgumentHelp("The key ID of --auth-key.", valueName: "K"))
    var keyID: String?

    @Option(name: .customLong("team-id"), help: ArgumentHelp("The team ID of --auth-key.", valueName: "T"))
    var teamID: String?

    func validate() throws {
        let given = [authKey, keyID, teamID].compactMap { $0 }
        if !given.isEmpty, given.count != 3 {
            throw ValidationError("--auth-key, --key-id and --team-id go together")
        }
    }

    /// The key file's PEM text, the key ID and the team ID, or nil without `--auth-key`; `fail` says why the file
    /// cannot be read and does not return.
    /// `command` names who says it in the failure ("richpush serve").
    func pem(command: String) throws(CommandFailure) -> (pem: String, keyID: String, teamID: String)? {
        guard let authKey, let keyID, let teamID else { return nil }
        do {
            return (try String(contentsOfFile: authKey, encoding: .utf8), keyID, teamID)
        } catch {
            throw .io("\(command): cannot read the auth key \(authKey): \((error as NSError).localizedDescription)")
        }
    }

    /// The key to verify provider token signatures with, or nil without `--auth-key`.
    func signingKey(command: String) throws(CommandFailure) -> ProviderTokenVerifier.SigningKey? {
        guard let (pem, keyID, teamID) = try pem(command: command) else { return nil }
        do {
            return try ProviderTokenVerifier.SigningKey(p8: pem, keyID: keyID, teamID: teamID)
        } catch {
            throw .io("\(command): \(authKey ?? "") is not a P-256 private key in PEM (an AuthKey_KEYID.p8 file)")
        }
    }
}

/// The push endpoint's options, the same for `serve` and the notification center.
struct EndpointOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Receive APNs and FCM pushes on HOST:PORT, e.g. 0.0.0.0:2197 or [::1]:2197 (port 0 picks a free one; default: \(ListenAddress.standard)).",
            valueName: "HOST:PORT"))
    var listen: ListenAddress?

    @Option(
        name: .customLong("ca-out"),
        help: ArgumentHelp(
            "Write the push endpoint's CA certificate (PEM) to FILE, for curl --cacert and `richpush push --cacert` (default: a temporary file removed on exit).",
            valueName: "FILE"))
    var caOut: String?

    @Option(
        name: .customLong("bundle-id"),
        help: ArgumentHelp(
            "The app the device tokens belong to: other topics are DeviceTokenNotForTopic.", valueName: "ID"))
    var bundleID: String?

    @Option(
        name: .customLong("unregistered"),
        help: ArgumentHelp("Answer pushes to TOKEN with 410 Unregistered (repeatable).", valueName: "TOKEN"))
    var unregistered: [String] = []

    @OptionGroup var providerKey: ProviderKeyOptions

    func validate() throws {
        for token in unregistered where token.isEmpty {
            throw ValidationError("--unregistered needs a token")
        }
    }
}

/// Where a push endpoint listens, as `--listen` takes it: "127.0.0.1:2197", "[::1]:2197", "localhost:0".
struct ListenAddress: ExpressibleByArgument, Sendable, Equatable, CustomStringConvertible {
    var host: String
    var port: Int

    /// 127.0.0.1 on APNs' development port number.
    static let standard = ListenAddress(host: "127.0.0.1", port: PushServerConfiguration.defaultPort)

    init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    init?(argument text: String) {
        guard let colon = text.lastIndex(of: ":") else { return nil }
        var host = String(text[..<colon])
        guard let port = Int(text[text.index(after: colon)...]), (0...65535).contains(port) else { return nil }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty, !host.contains("[") else { return nil }
        self.init(host: host, port: port)
    }

    /// The host as it is written before ":PORT" (an IPv6 address in brackets).
    var shownHost: String { host.contains(":") ? "[\(host)]" : host }

    var description: String { "\(shownHost):\(port)" }
}
