import Crypto
import Foundation
import RichPushCore

/// A team's extension folder, built into an executable that runs its principal class for one notification.
public struct BuiltExtension: Sendable, Equatable {
    /// The folder as the user named it.
    public var folder: String
    public var principalClass: String
    public var executable: String
    /// The Swift files compiled, as the user's paths.
    public var sources: [String]
    /// True when the executable came from the cache (the sources and richpush unchanged).
    public var cached: Bool
}

/// Builds a team's extension folder: all its `.swift` files, unmodified, in Swift 5 mode (as Xcode's extension
/// template), against the compatibility modules, with a generated `main.swift` that hands the principal class to
/// the process host. The executable is cached under a key of the sources, the principal class, richpush's version
/// and the compatibility library, so unchanged sources are not rebuilt.
///
/// It calls `swiftc` directly rather than generating a SwiftPM package: a package would resolve and build
/// richpush's dependency graph again for every extension, where the modules this richpush was built with are
/// already on disk beside it (`Modules/` and `libRichPushExtensionSDK.so`).
public struct ExtensionBuilder: Sendable {
    /// Where the compatibility modules and their library are: beside the richpush executable, or
    /// `RICHPUSH_EXTENSION_SDK`.
    public var sdkFolder: String
    /// Where built extensions are kept: `$XDG_CACHE_HOME/richpush/extensions`, else `~/.cache/richpush/extensions`.
    public var cacheFolder: String
    public var compiler: String

    /// The modules an extension may import from richpush, for messages.
    public static let providedModules = [
        "UserNotifications", "MobileCoreServices", "UniformTypeIdentifiers", "CommonCrypto", "os", "OSLog",
        "FirebaseMessaging",
    ]
    /// The name of the shared library holding them.
    static let libraryName = "RichPushExtensionSDK"
    /// At most this many Swift files, each at most `maxSourceBytes`: an extension is one to a few files.
    static let maxSources = 200
    static let maxSourceBytes = 2 * 1024 * 1024

    public init(sdkFolder: String? = nil, cacheFolder: String? = nil, compiler: String? = nil) {
        let environment = ProcessInfo.processInfo.environment
        self.sdkFolder =
            sdkFolder ?? environment["RICHPUSH_EXTENSION_SDK"]
            ?? (Bundle.main.executableURL?.deletingLastPathComponent().path ?? ".")
        let cacheBase =
            environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (FileManager.default.homeDirectoryForCurrentUser.path + "/.cache")
        self.cacheFolder = cacheFolder ?? cacheBase + "/richpush/extensions"
        self.compiler = compiler ?? Self.findCompiler()
    }

    /// Why a folder could not be built, as one message; `diagnostics` holds the compiler's own words.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public var description: String
        public var diagnostics: String = ""
        /// One line per import or API the compatibility modules do not provide.
        public var unsupported: [String] = []
    }

    /// Builds `folder` (or finds it built); `principalClass` overrides the Info.plist and the source scan.
    public func build(_ folder: String, principalClass: String? = nil) async throws(Failure) -> BuiltExtension {
        let sources = try Self.sources(in: folder)
        let principal: String
        if let principalClass {
            principal = principalClass
        } else {
            principal = try Self.principalClass(in: folder, sources: sources)
        }
        let modules = sdkFolder + "/Modules"
        let library = sdkFolder + "/lib\(Self.libraryName).so"
        guard FileManager.default.fileExists(atPath: modules + "/UserNotifications.swiftmodule"),
            FileManager.default.fileExists(atPath: library)
        else {
            throw Failure(
                description:
                    "the compatibility modules are not built in \(sdkFolder): run `swift build --product \(Self.libraryName)` (or `swift build`) in richpush's folder, or set RICHPUSH_EXTENSION_SDK"
            )
        }
        let key = try Self.cacheKey(sources: sources, principal: principal, library: library)
        let target = cacheFolder + "/" + key
        let executable = target + "/extension"
        let relative = sources.map(\.path)
        if FileManager.default.isExecutableFile(atPath: executable) {
            return BuiltExtension(
                folder: folder, principalClass: principal, executable: executable, sources: relative, cached: true)
        }
        do {
            try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true)
        } catch {
            throw Failure(description: "cannot create the build folder \(target): \(error.localizedDescription)")
        }
        let main = target + "/main.swift"
        let generated = """
            // Generated by richpush \(RichPushVersion.current) for \(folder): runs \(principal) for one notification.
            import RichPushExtensionHost

            RichPushExtensionHost.run(\(principal).self)

            """
        do {
            try generated.write(toFile: main, atomically: true, encoding: .utf8)
        } catch {
            throw Failure(description: "cannot write \(main): \(error.localizedDescription)")
        }
        // `import os.log` names a submodule, which only a Clang module can have: an empty Clang module `os` with
        // submodules `log` and `signpost`, over which the Swift module `os` is the overlay.
        let clang = target + "/clang"
        do {
            try FileManager.default.createDirectory(atPath: clang, withIntermediateDirectories: true)
            try Self.osModuleMap.write(toFile: clang + "/module.modulemap", atomically: true, encoding: .utf8)
            try "".write(toFile: clang + "/os_log.h", atomically: true, encoding: .utf8)
        } catch {
            throw Failure(description: "cannot write \(clang): \(error.localizedDescription)")
        }
        let partial = target + "/extension.partial-\(getpid())"
        let arguments =
            [
                "-swift-version", "5", "-module-name", "ServiceExtension", "-Onone", "-g", "-I", modules, "-I", clang,
                "-L",
                sdkFolder, "-l\(Self.libraryName)", "-Xlinker", "-rpath", "-Xlinker", sdkFolder,
                "-o", partial,
            ] + relative + [main]
        let (status, output) = await Self.run(compiler, arguments)
        guard status == 0 else {
            try? FileManager.default.removeItem(atPath: partial)
            let unsupported = Self.unsupported(in: output)
            var failure = Failure(
                description: "\(folder) does not build (\(Self.errorCount(in: output)) compiler error(s))")
            failure.diagnostics = output
            failure.unsupported = unsupported
            throw failure
        }
        guard rename(partial, executable) == 0 else {
            throw Failure(description: "cannot move the built extension to \(executable)")
        }
        try? output.write(toFile: target + "/build.log", atomically: true, encoding: .utf8)
        return BuiltExtension(
            folder: folder, principalClass: principal, executable: executable, sources: relative, cached: false)
    }

    static let osModuleMap = """
        module os {
            module log { header "os_log.h" export * }
            module signpost { header "os_log.h" export * }
            export *
        }

        """

    /// A source file, by the path the user's folder gives it.
    struct Source: Sendable {
        var path: String
        var bytes: [UInt8]
    }

    /// The folder's Swift files, in a stable order (symbolic links followed); hidden folders and anything not a
    /// regular file (a FIFO, a device) are skipped.
    static func sources(in folder: String) throws(Failure) -> [Source] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) else {
            throw Failure(description: "\(folder): no such folder")
        }
        guard isDirectory.boolValue else { throw Failure(description: "\(folder): not a folder") }
        guard access(folder, R_OK | X_OK) == 0 else {
            throw Failure(description: "\(folder): cannot be read (\(String(cString: strerror(errno)).lowercased()))")
        }
        guard let walker = FileManager.default.enumerator(atPath: folder) else {
            throw Failure(description: "\(folder): cannot be read")
        }
        var paths: [String] = []
        while let relative = walker.nextObject() as? String {
            let name = (relative as NSString).lastPathComponent
            if name.hasPrefix(".") {
                walker.skipDescendants()
                continue
            }
            guard relative.hasSuffix(".swift") else { continue }
            paths.append(folder.hasSuffix("/") ? folder + relative : folder + "/" + relative)
        }
        paths.sort()
        guard !paths.isEmpty else { throw Failure(description: "\(folder): no .swift files") }
        guard paths.count <= maxSources else {
            throw Failure(description: "\(folder): \(paths.count) Swift files; an extension has at most \(maxSources)")
        }
        var sources: [Source] = []
        for path in paths {
            var status = stat()
            guard stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { continue }
            guard Int(status.st_size) <= maxSourceBytes else {
                throw Failure(description: "\(path): \(status.st_size) bytes, larger than a source file can be")
            }
            guard let data = FileManager.default.contents(atPath: path) else {
                throw Failure(description: "\(path): cannot be read")
            }
            sources.append(Source(path: path, bytes: Array(data)))
        }
        return sources
    }

    /// The principal class: the Info.plist's `NSExtensionPrincipalClass` (without `$(PRODUCT_MODULE_NAME).`), else
    /// the one subclass of `UNNotificationServiceExtension` in the sources.
    static func principalClass(in folder: String, sources: [Source]) throws(Failure) -> String {
        let plist = folder + "/Info.plist"
        if let data = FileManager.default.contents(atPath: plist),
            let object = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any],
            let extensionInfo = object["NSExtension"] as? [String: Any],
            let declared = extensionInfo["NSExtensionPrincipalClass"] as? String
        {
            let name = declared.split(separator: ".").last.map(String.init) ?? declared
            guard !name.isEmpty else { throw Failure(description: "\(plist): NSExtensionPrincipalClass is empty") }
            return name
        }
        let pattern = try! NSRegularExpression(
            pattern: #"class\s+([A-Za-z_][A-Za-z0-9_]*)\s*:\s*UNNotificationServiceExtension\b"#)
        var found: [String] = []
        for source in sources {
            let text = String(decoding: source.bytes, as: UTF8.self)
            let range = NSRange(text.startIndex..., in: text)
            for match in pattern.matches(in: text, range: range) {
                if let name = Range(match.range(at: 1), in: text) { found.append(String(text[name])) }
            }
        }
        switch found.count {
        case 1: return found[0]
        case 0:
            throw Failure(
                description:
                    "\(folder): no subclass of UNNotificationServiceExtension found; name the class with --principal-class"
            )
        default:
            throw Failure(
                description:
                    "\(folder): \(found.count) subclasses of UNNotificationServiceExtension (\(found.joined(separator: ", "))); name one with --principal-class or in Info.plist's NSExtensionPrincipalClass"
            )
        }
    }

    /// A hash of everything the executable depends on.
    static func cacheKey(sources: [Source], principal: String, library: String) throws(Failure) -> String {
        var hasher = SHA256()
        hasher.update(data: Array("richpush \(RichPushVersion.current)\n\(principal)\n".utf8))
        var status = stat()
        if stat(library, &status) == 0 {
            hasher.update(data: Array("\(status.st_size) \(status.st_mtim.tv_sec).\(status.st_mtim.tv_nsec)\n".utf8))
        }
        for source in sources {
            hasher.update(data: Array("\(source.path)\n\(source.bytes.count)\n".utf8))
            hasher.update(data: source.bytes)
        }
        return hasher.finalize().prefix(12).map { String(format: "%02x", $0) }.joined()
    }

    /// One line per import or API the compatibility modules do not provide, from the compiler's errors.
    static func unsupported(in diagnostics: String) -> [String] {
        var lines: [String] = []
        let modules = providedModules.joined(separator: ", ")
        for line in diagnostics.split(separator: "\n") where line.contains("error:") {
            if let name = quoted(after: "no such module ", in: line) {
                lines.append("import \(name): not provided (richpush provides \(modules))")
            } else if let name = quoted(after: "cannot find ", in: line), line.contains("in scope") {
                lines.append(
                    "\(name): not in the compatibility modules (they cover the API the README's \"Your own extension\" lists)"
                )
            } else if line.contains("has no member") {
                let detail = line.components(separatedBy: "error: ").last ?? String(line)
                lines.append("\(detail): not in the compatibility modules")
            }
        }
        var seen = Set<String>()
        return lines.filter { seen.insert($0).inserted }
    }

    private static func quoted(after prefix: String, in line: Substring) -> String? {
        guard let start = line.range(of: prefix + "'") else { return nil }
        let rest = line[start.upperBound...]
        guard let end = rest.firstIndex(of: "'") else { return nil }
        return String(rest[..<end])
    }

    private static func errorCount(in diagnostics: String) -> Int {
        diagnostics.split(separator: "\n").filter { $0.contains(": error:") }.count
    }

    static func findCompiler() -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") {
            let candidate = "\(folder)/swiftc"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return "/usr/bin/swiftc"
    }

    /// Runs a command to its end: its status, and its output and errors together.
    static func run(_ executable: String, _ arguments: [String]) async -> (Int32, String) {
        await withCheckedContinuation { continuation in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
            let output = Pipe()
            process.standardOutput = output
            process.standardError = output
            process.standardInput = FileHandle.nullDevice
            do {
                try process.run()
            } catch {
                continuation.resume(returning: (127, "cannot run \(executable): \(error.localizedDescription)"))
                return
            }
            Thread.detachNewThread {
                let data = output.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
                continuation.resume(returning: (process.terminationStatus, String(decoding: data, as: UTF8.self)))
            }
        }
    }
}
