import Foundation

/// Where a team's extension finds the compatibility modules and the library it links against: the package
/// `Compatibility/` of the richpush sources this binary was built from, built with the same configuration (debug or
/// release) on first use and whenever its sources are newer than its library; or `RICHPUSH_EXTENSION_SDK`, a folder
/// holding `Modules/` and `libRichPushExtensionSDK.so`.
public struct ExtensionSDK: Sendable, Equatable {
    public var folder: String
    public var modules: String { folder + "/Modules" }
    public var library: String { folder + "/lib\(Self.libraryName).so" }

    static let libraryName = "RichPushExtensionSDK"

    /// `Compatibility/` beside `Sources/` in the sources this file was compiled from.
    public static let packageFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Compatibility").path

    #if DEBUG
        static let configuration = "debug"
    #else
        static let configuration = "release"
    #endif

    /// The SDK, built if needed; `note` hears what takes time ("building the compatibility modules…").
    public static func locate(note: @Sendable (String) -> Void = { _ in }) async throws(ExtensionBuilder.Failure)
        -> ExtensionSDK
    {
        if let folder = ProcessInfo.processInfo.environment["RICHPUSH_EXTENSION_SDK"], !folder.isEmpty {
            let sdk = ExtensionSDK(folder: folder)
            guard sdk.isComplete else {
                throw ExtensionBuilder.Failure(
                    description:
                        "RICHPUSH_EXTENSION_SDK=\(folder) holds no Modules/UserNotifications.swiftmodule and lib\(libraryName).so"
                )
            }
            return sdk
        }
        guard FileManager.default.fileExists(atPath: packageFolder + "/Package.swift") else {
            throw ExtensionBuilder.Failure(
                description:
                    "the compatibility package is not at \(packageFolder) (richpush was moved away from its sources); set RICHPUSH_EXTENSION_SDK to a folder with Modules/ and lib\(libraryName).so"
            )
        }
        let sdk = ExtensionSDK(folder: packageFolder + "/.build/" + configuration)
        if sdk.isComplete && !sdk.isOlderThanItsSources { return sdk }
        note(
            "building the compatibility modules in \(packageFolder) (\(configuration); the first time takes a minute or two)"
        )
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
        return sdk
    }

    var isComplete: Bool {
        FileManager.default.fileExists(atPath: modules + "/UserNotifications.swiftmodule")
            && FileManager.default.fileExists(atPath: library)
    }

    /// Whether a source file or the manifest of the package changed after the library was linked.
    var isOlderThanItsSources: Bool {
        guard let built = Self.modificationTime(library) else { return true }
        var newest = Self.modificationTime(Self.packageFolder + "/Package.swift") ?? 0
        if let walker = FileManager.default.enumerator(atPath: Self.packageFolder + "/Sources") {
            while let relative = walker.nextObject() as? String {
                newest = max(newest, Self.modificationTime(Self.packageFolder + "/Sources/" + relative) ?? 0)
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
