import Foundation
import RichPushCustomExtension

extension DeliveryOptions {
    /// Builds `--extension DIR` before anything starts (nil without it). A folder that does not build is one
    /// failure: the compiler's diagnostics with the user's paths, a line per import or API richpush does not
    /// provide, then the error (status 2).
    func buildExtension(command: String) async throws(CommandFailure) -> BuiltExtension? {
        guard let extensionFolder else { return nil }
        do {
            let built = try await ExtensionBuilder(note: { StandardStreams.error("richpush: \($0)\n") }).build(
                extensionFolder, principalClass: principalClass)
            return built
        } catch {
            Self.report(error)
            throw .io("\(command): \(error.description)")
        }
    }

    /// The compiler's diagnostics, then what richpush does not provide, on standard error.
    static func report(_ failure: ExtensionBuilder.Failure) {
        if !failure.diagnostics.isEmpty {
            StandardStreams.error(
                failure.diagnostics.hasSuffix("\n") ? failure.diagnostics : failure.diagnostics + "\n")
        }
        for line in failure.unsupported { StandardStreams.error("richpush: not provided: \(line)\n") }
    }
}
