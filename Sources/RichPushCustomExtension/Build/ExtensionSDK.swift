import Foundation
import RichPushHostProtocol
import Synchronization

/// Where a team's extension finds the compatibility modules and the library it links against: the package
/// `Compatibility/` of the richpush sources this binary was built from, built with the same configuration (debug or
/// release) on first use and whenever its sources (or the shared rules it depends on) are newer than its library or
/// it was built by another compiler; or `RICHPUSH_EXTENSION_SDK`, a folder holding `Modules/` and
/// `libRichPushExtensionSDK.so`.
///
/// Each build leaves a stamp beside the library (``stampFileName``): the compiler's version and the host protocol's.
/// Swift modules built by one compiler do not import into another, and the failure would read as the team's own
/// build error; so an SDK whose stamp names another compiler is rebuilt, or, when it is not ours to rebuild
/// (`RICHPUSH_EXTENSION_SDK`), refused with one line saying which compilers.
public struct ExtensionSDK: Sendable, Equatable {
    public var folder: String
    public var modules: String { folder + "/Modules" }
    public var library: String { folder + "/lib\(Self.libraryName).so" }

    static let libraryName = "RichPushExtensionSDK"

    /// `Compatibility/` beside `Sources/` in the sources this file was compiled from.
    public static let packageFolder = sourceRoot + "/Compatibility"
    /// `Shared/`, the rules and protocol the compatibility package depends on by path.
    static let sharedFolder = sourceRoot + "/Shared"
    static let sourceRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    /// The file beside the library that says what built it.
    static let stampFileName = "richpush-sdk.stamp"
    var stampFile: String { folder + "/" + Self.stampFileName }

    /// What a stamp says for `compilerVersion`: the compiler and the host protocol.
    static func stamp(compilerVersion: String) -> String {
        "compiler: \(compilerVersion)\nhost protocol: \(HostProtocol.version)\n"
    }

    /// The stamp the SDK was built with; nil when it has none (built by an older richpush, or by hand).
    var recordedStamp: String? { try? String(contentsOfFile: stampFile, encoding: .utf8) }

    #if DEBUG
        static let configuration = "debug"
    #else
        static let configuration = "release"
    #endif

    /// Where `scripts/install` puts the SDK, beside the installed executable: `PREFIX/share/richpush/sdk` for
    /// `PREFIX/bin/richpush`. Nil when richpush runs from its sources (there is no such folder).
    public static var installed: ExtensionSDK? {
        guard let executable = Bundle.main.executableURL?.resolvingSymlinksInPath() else { return nil }
        let folder = executable.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("share/richpush/sdk").path
        let sdk = ExtensionSDK(folder: folder)
        return FileManager.default.fileExists(atPath: folder) ? sdk : nil
    }

    /// The SDK, built if needed; `note` hears what takes time ("building the compatibility modules…"). In order:
    /// `RICHPUSH_EXTENSION_SDK`; the SDK installed beside this executable (``installed``); the compatibility package
    /// of the sources this executable was built from, built when needed.
    public static func locate(
        environment: [String: String] = ProcessInfo.processInfo.environment, note: @Sendable (String) -> Void = { _ in }
    ) async throws(ExtensionBuilder.Failure) -> ExtensionSDK {
        if let folder = environment["RICHPUSH_EXTENSION_SDK"], !folder.isEmpty {
            let sdk = ExtensionSDK(folder: folder)
            guard sdk.isComplete else {
                throw ExtensionBuilder.Failure(
                    description:
                        "RICHPUSH_EXTENSION_SDK=\(folder) holds no Modules/UserNotifications.swiftmodule and lib\(libraryName).so"
                )
            }
            try await sdk.check(builtBy: "RICHPUSH_EXTENSION_SDK=\(folder)")
            return sdk
        }
        if let installed {
            guard installed.isComplete else {
                throw ExtensionBuilder.Failure(
                    description:
                        "the installed SDK \(installed.folder) holds no Modules/UserNotifications.swiftmodule and lib\(libraryName).so: run scripts/install again"
                )
            }
            try await installed.check(
                builtBy: "the installed SDK \(installed.folder)",
                remedy: "run scripts/install again with this toolchain")
            return installed
        }
        guard FileManager.default.fileExists(atPath: packageFolder + "/Package.swift") else {
            throw ExtensionBuilder.Failure(
                description:
                    "the compatibility package is not at \(packageFolder) (richpush was moved away from its sources); set RICHPUSH_EXTENSION_SDK to a folder with Modules/ and lib\(libraryName).so"
            )
        }
        let sdk = ExtensionSDK(folder: packageFolder + "/.build/" + configuration)
        let expected = stamp(compilerVersion: await ExtensionBuilder.compilerVersion())
        if sdk.isComplete && !sdk.isOlderThanItsSources && sdk.recordedStamp == expected { return sdk }
        let why =
            if let recorded = sdk.recordedStamp, sdk.isComplete, recorded != expected {
                "built for \(oneLine(recorded)), now \(oneLine(expected))"
            } else {
                "\(configuration); the first time takes a minute or two"
            }
        note("building the compatibility modules in \(packageFolder) (\(why))")
        let swift = ExtensionBuilder.findTool("swift")
        let (status, output) = await ExtensionBuilder.run(
            swift, ["build", "--package-path", packageFolder, "-c", configuration, "--product", libraryName])
        guard status == 0, sdk.isComplete else {
            var failure = ExtensionBuilder.Failure(
                description:
                    "cannot build the compatibility modules in \(packageFolder) (swift build: status \(status))")
            failure.diagnostics = String(output.suffix(4000))
            throw failure
        }
        try? expected.write(toFile: sdk.stampFile, atomically: true, encoding: .utf8)
        return sdk
    }

    /// Refuses an SDK richpush did not build here when its stamp names another compiler or protocol.
    func check(
        builtBy who: String,
        remedy: String = "rebuild it (swift build --package-path Compatibility) with this toolchain"
    )
        async throws(ExtensionBuilder.Failure)
    {
        let expected = Self.stamp(compilerVersion: await ExtensionBuilder.compilerVersion())
        if let recorded = recordedStamp, recorded != expected {
            throw ExtensionBuilder.Failure(
                description:
                    "\(who) was built for \(Self.oneLine(recorded)), this richpush needs \(Self.oneLine(expected)): \(remedy)"
            )
        }
    }

    /// A stamp on one line, for a message.
    static func oneLine(_ stamp: String) -> String {
        stamp.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: ", ")
    }

    var isComplete: Bool {
        FileManager.default.fileExists(atPath: modules + "/UserNotifications.swiftmodule")
            && FileManager.default.fileExists(atPath: library)
    }

    /// Whether a source file or the manifest of the package, or of the shared package it depends on, changed after the
    /// library was linked or last built by richpush (its stamp): a build that found nothing to do (a file touched, not
    /// changed) relinks nothing, and the library's own time would call for `swift build` on every run.
    var isOlderThanItsSources: Bool {
        guard let linked = Self.modificationTime(library) else { return true }
        let built = max(linked, Self.modificationTime(stampFile) ?? 0)
        var newest: Double = 0
        for package in [Self.packageFolder, Self.sharedFolder] {
            newest = max(newest, Self.modificationTime(package + "/Package.swift") ?? 0)
            if let walker = FileManager.default.enumerator(atPath: package + "/Sources") {
                while let relative = walker.nextObject() as? String {
                    newest = max(newest, Self.modificationTime(package + "/Sources/" + relative) ?? 0)
                }
            }
        }
        return newest > built
    }

    static func modificationTime(_ path: String) -> Double? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return Double(status.st_mtim.tv_sec) + Double(status.st_mtim.tv_nsec) / 1e9
    }
}
