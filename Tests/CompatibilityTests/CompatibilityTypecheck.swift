import Foundation
import RichPushCustomExtension
import RichPushTestSupport

/// Type-checks Swift files as a team's extension is compiled (Swift 5 language mode) against the compatibility
/// modules (the package Compatibility/, built on first use), as ``SeedExtensionsCompileTests`` does for the seed articles.
enum CompatibilityTypecheck {
    static func typecheck(_ files: [(name: String, text: String)]) async throws -> (status: Int32, output: String) {
        let folder = try TemporaryFolder()
        let paths = try files.map { file in
            let path = folder.path + "/" + file.name
            try file.text.write(toFile: path, atomically: false, encoding: .utf8)
            return path
        }
        let modules = try await ExtensionSDK.locate().modules
        let run = try await runExecutable(
            SeedArticles.swiftc, ["-typecheck", "-swift-version", "5", "-I", modules] + paths)
        return (run.status, run.stdout + run.stderr)
    }

    static func typecheck(_ name: String, _ text: String) async throws -> (status: Int32, output: String) {
        try await typecheck([(name, text)])
    }
}
