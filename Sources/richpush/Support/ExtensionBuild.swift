import ArgumentParser
import Foundation
import RichPushCustomExtension

/// How an extension is built, wherever one is (`--extension`, `extension check`): its principal class, and the app's
/// files the extension target shares.
struct PrincipalClassOption: ParsableArguments {
    @Option(
        name: .customLong("principal-class"),
        help: ArgumentHelp(
            "The extension's principal class (default: Info.plist's NSExtensionPrincipalClass, else the one UNNotificationServiceExtension subclass).",
            valueName: "NAME"))
    var name: String?

    @Option(
        name: .customLong("target"),
        help: ArgumentHelp(
            "With an Xcode project as the extension: its Notification Service Extension target, when it has several.",
            valueName: "NAME"))
    var target: String?

    @Option(
        name: .customLong("extension-sources"),
        help: ArgumentHelp(
            "A Swift file or folder of the app's that the extension target compiles too (a shared constants file, a keychain wrapper); repeat it for several.",
            valueName: "PATH"))
    var extensionSources: [String] = []

    /// Builds `folder` with this principal class. A folder that does not build is one failure: the compiler's
    /// diagnostics with the user's paths and a line per import or API richpush does not provide on standard
    /// error, then the error (status 2) that `command` throws.
    func build(_ folder: String, command: String) async throws(CommandFailure) -> BuiltExtension {
        do {
            let input = try ExtensionInput.named(folder, target: target, extraSources: extensionSources)
            for note in input.notes { StandardStreams.error("richpush: \(note)\n") }
            return try await ExtensionBuilder(note: { StandardStreams.error("richpush: \($0)\n") }).build(
                input, principalClass: name)
        } catch {
            if !error.diagnostics.isEmpty {
                StandardStreams.error(error.diagnostics.hasSuffix("\n") ? error.diagnostics : error.diagnostics + "\n")
            }
            for line in error.unsupported { StandardStreams.error("richpush: not provided: \(line)\n") }
            throw .io("\(command): \(error.description)")
        }
    }
}

extension DeliveryOptions {
    /// Builds `--extension DIR` before anything starts (nil without it).
    func buildExtension(command: String) async throws(CommandFailure) -> BuiltExtension? {
        guard let extensionFolder else { return nil }
        return try await principalClass.build(extensionFolder, command: command)
    }
}
