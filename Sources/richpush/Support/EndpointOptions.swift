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
