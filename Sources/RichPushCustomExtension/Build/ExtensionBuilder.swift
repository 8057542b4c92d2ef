import Crypto
import Foundation
import RichPushHostProtocol
import RichPushRules
import Synchronization
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
    /// What richpush said of the extension before compiling it (Objective-C it does not compile).
    public var notes: [String] = []
    /// The modules of its repository it links (its project's framework targets, its local packages' targets), in
    /// the order they were built.
    public var libraries: [LibraryModule] = []
}

/// Builds a team's extension folder: all its `.swift` files, unmodified, in Swift 5 mode (as Xcode's extension
/// template), against the compatibility modules, with a generated `main.swift` that hands the principal class to
/// the process host. The executable is cached under a key of the sources, the principal class, richpush's version
/// and the compatibility library, so unchanged sources are not rebuilt.
///
/// It calls `swiftc` directly rather than generating a SwiftPM package: a package would resolve and build a
/// dependency graph for every extension, where the compatibility modules are built once (``ExtensionSDK``).
public struct ExtensionBuilder: Sendable {
    /// Where built extensions are kept: `$XDG_CACHE_HOME/richpush/extensions`, else `~/.cache/richpush/extensions`.
    public var cacheFolder: String
    public var compiler: String

    /// The modules an extension may import from richpush, for messages.
    public static var providedModules: [String] { BuildDiagnostics.providedModules }
    /// At most this many Swift files, each at most `maxSourceBytes`: an extension is one to a few files.
    static let maxSources = 200
    static let maxSourceBytes = 2 * 1024 * 1024

    /// Hears what takes time (building the compatibility modules on first use).
    public var note: @Sendable (String) -> Void

    public init(
        cacheFolder: String? = nil, compiler: String? = nil, note: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        let environment = ProcessInfo.processInfo.environment
        self.note = note
        let cacheBase =
            environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (FileManager.default.homeDirectoryForCurrentUser.path + "/.cache")
        self.cacheFolder = cacheFolder ?? cacheBase + "/richpush/extensions"
        self.compiler = compiler ?? Self.findTool("swiftc")
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
        try await build(try ExtensionInput.folder(folder), principalClass: principalClass)
    }

    /// Builds `input` (or finds it built); `principalClass` overrides the Info.plist and the source scan.
    public func build(_ input: ExtensionInput, principalClass: String? = nil) async throws(Failure) -> BuiltExtension {
        let sources = try Self.read(input.swiftFiles)
        let principal: String
        if let principalClass {
            principal = principalClass
        } else {
            principal = try Self.principalClass(of: input, sources: sources)
        }
        let sdk = try await ExtensionSDK.locate(note: note)
        let modules = sdk.modules
        let library = sdk.library
        let libraries = try await self.libraries(of: input, note: note)
        let key = try Self.cacheKey(
            sources: sources, principal: principal + "\n" + input.implicitModules.joined(separator: " "),
            library: library, compiler: await Self.compilerVersion(compiler), libraries: libraries)
        let target = cacheFolder + "/" + key
        let executable = target + "/extension"
        let relative = sources.map(\.path)
        let built = BuiltExtension(
            folder: input.label, principalClass: principal, executable: executable, sources: relative, cached: true,
            notes: input.notes, libraries: libraries.map(\.module))
        if FileManager.default.isExecutableFile(atPath: executable) { return built }
        do {
            try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true)
        } catch {
            throw Failure(description: "cannot create the build folder \(target): \(error.localizedDescription)")
        }
        let main = target + "/main.swift"
        // Qualified by its module: a vendor's module may export a class of the same name as the team's
        // (BrazeNotificationService.NotificationService), and Info.plist may name a vendor's class itself (CleverTap's
        // "no code" extension: NSExtensionPrincipalClass = CTNotificationServiceExtension).
        let texts = sources.map { String(decoding: $0.bytes, as: UTF8.self) }
        let module = Self.module(defining: principal, in: texts)
        let generated = """
            // Generated by richpush \(RichPushVersion.current) for \(input.label): runs \(principal) for each notification.
            import RichPushExtensionHost
            \(module == Self.moduleName ? "" : "import \(module)")

            RichPushExtensionHost.run { \(module).\(principal)() }

            """
        do {
            try generated.write(toFile: main, atomically: true, encoding: .utf8)
        } catch {
            throw Failure(description: "cannot write \(main): \(error.localizedDescription)")
        }
        // `import os.log` names a submodule, which only a Clang module can have: an empty Clang module `os` with
        // submodules `log` and `signpost`, over which the Swift module `os` is the overlay. `import SQLite3` is a
        // Clang module too (the system's libsqlite3, as the compatibility package's SQLite3 target maps it).
        let clang = target + "/clang"
        do {
            try FileManager.default.createDirectory(atPath: clang, withIntermediateDirectories: true)
            try (Self.osModuleMap + Self.sqliteModuleMap).write(
                toFile: clang + "/module.modulemap", atomically: true, encoding: .utf8)
            try "".write(toFile: clang + "/os_log.h", atomically: true, encoding: .utf8)
            try "#include <sqlite3.h>\n".write(toFile: clang + "/SQLite3.h", atomically: true, encoding: .utf8)
        } catch {
            throw Failure(description: "cannot write \(clang): \(error.localizedDescription)")
        }
        let partial = target + "/extension.partial-\(getpid())"
        // Modules every file sees without importing them, as on iOS (Foundation there has URLSession).
        // iOS's Foundation has XMLParser; on Linux it is FoundationXML's, imported where the sources mention XML.
        var implicitModules = input.implicitModules
        let mentionsXML =
            texts.contains { $0.contains("XMLParser") }
            || libraries.flatMap(\.sources).contains { String(decoding: $0.bytes, as: UTF8.self).contains("XMLParser") }
        if mentionsXML { implicitModules.append("FoundationXML") }
        let implicit = implicitModules.flatMap { ["-Xfrontend", "-import-module", "-Xfrontend", $0] }
        let common = ["-swift-version", "5", "-Onone", "-g", "-I", modules, "-I", clang]
        let sdkArguments = Self.sdkModuleArguments(folder: sdk.folder, modules: modules)
        // The repository's own libraries, each a static library and module in libs/, in dependency order; one that
        // does not build is named with its own errors, before the extension is tried.
        let libs = target + "/libs"
        if !libraries.isEmpty {
            do {
                try FileManager.default.createDirectory(atPath: libs, withIntermediateDirectories: true)
            } catch {
                throw Failure(description: "cannot create \(libs): \(error.localizedDescription)")
            }
        }
        for (module, _) in libraries {
            let arguments =
                common + [
                    "-module-name", module.name, "-parse-as-library", "-I", libs, "-emit-library", "-static",
                    "-emit-module", "-emit-module-path", libs + "/\(module.name).swiftmodule",
                    "-o", libs + "/lib\(module.name).a",
                ] + sdkArguments + implicit + module.swiftFiles
            let (status, output) = await Self.run(compiler, arguments, ownTemporaryFolder: true)
            guard status == 0 else {
                var failure = Failure(
                    description:
                        "\(input.label): \(module.origin), which the extension links, does not build (\(BuildDiagnostics.errorCount(in: output)) compiler error(s))"
                        + (BuildDiagnostics.firstError(in: output).map { ": \($0)" } ?? ""))
                failure.diagnostics = BuildDiagnostics.forTheTeam(output)
                failure.unsupported = BuildDiagnostics.unsupported(in: output, fromProject: input.fromProject)
                throw failure
            }
        }
        let linkLibraries =
            libraries.isEmpty ? [] : ["-I", libs, "-L", libs] + libraries.reversed().map { "-l" + $0.module.name }
        let arguments =
            common + [
                "-module-name", Self.moduleName,
                "-L", sdk.folder, "-l\(ExtensionSDK.libraryName)", "-Xlinker", "-rpath", "-Xlinker", sdk.folder,
                "-o", partial,
            ] + linkLibraries + sdkArguments + implicit + relative + [main]
        let (status, output) = await Self.run(compiler, arguments, ownTemporaryFolder: true)
        guard status == 0 else {
            try? FileManager.default.removeItem(atPath: partial)
            var failure = Failure(
                description:
                    "\(input.label) does not build (\(BuildDiagnostics.errorCount(in: output)) compiler error(s))")
            failure.diagnostics = BuildDiagnostics.forTheTeam(output)
            // The input's notes were said before compiling (``ExtensionInput/notes``).
            failure.unsupported = BuildDiagnostics.unsupported(in: output, fromProject: input.fromProject)
            throw failure
        }
        guard rename(partial, executable) == 0 else {
            throw Failure(description: "cannot move the built extension to \(executable)")
        }
        try? output.write(toFile: target + "/build.log", atomically: true, encoding: .utf8)
        var fresh = built
        fresh.cached = false
        return fresh
    }

    /// The module the team's files are compiled into.
    static let moduleName = "ServiceExtension"

    /// At most this many Swift files in all the libraries an extension links from its repository.
    static let maxLibrarySources = 2000

    /// The modules the extension links from its own repository, in build order: its local packages' (said as they
    /// are read), then its project's framework targets; each read, and checked to be a name it can have.
    func libraries(of input: ExtensionInput, note: @Sendable (String) -> Void) async throws(Failure) -> [(
        module: LibraryModule, sources: [Source]
    )] {
        var modules = input.libraries
        if !input.localProducts.isEmpty {
            let walk = await LocalPackages.modules(
                for: input.localProducts, swift: Self.findTool("swift"), resolveFolder: cacheFolder + "/packages")
            for line in walk.notes { note(line) }
            modules = walk.modules + modules
        }
        var seen: Set<String> = []
        modules = modules.filter { seen.insert($0.name).inserted }
        guard modules.reduce(0, { $0 + $1.swiftFiles.count }) <= Self.maxLibrarySources else {
            throw Failure(
                description:
                    "\(input.label): the libraries it links from its repository have more than \(Self.maxLibrarySources) Swift files"
            )
        }
        var read: [(module: LibraryModule, sources: [Source])] = []
        for module in modules {
            // A vendor's own repository (its sample app beside its SDK's package): richpush's emulation of the module
            // is what the extension gets, as with the published SDK.
            if BuildDiagnostics.providedModules.contains(module.name) {
                note(
                    "\(module.origin): richpush's own module \(module.name) stands for it (the emulated SDK), so it is not built"
                )
                continue
            }
            guard ![Self.moduleName, "RichPushExtensionHost"].contains(module.name) else {
                throw Failure(
                    description:
                        "\(input.label): \(module.origin) is named \(module.name), the name richpush gives the extension's own module or its host; rename it to build it"
                )
            }
            guard module.name.first.map({ $0 == "_" || $0.isLetter }) == true,
                module.name.allSatisfy({ $0 == "_" || $0.isLetter || $0.isNumber })
            else {
                throw Failure(
                    description:
                        "\(input.label): \(module.origin) has the module name \(module.name), which is not a Swift identifier"
                )
            }
            read.append((module, try Self.read(module.swiftFiles, limit: Self.maxLibrarySources)))
        }
        return read
    }

    /// The module that defines the principal class: the team's, unless the sources define no class of that name and a
    /// vendor's SDK has a base class of it.
    static func module(defining principal: String, in texts: [String]) -> String {
        guard PrincipalClassFinder.superclasses(in: texts)[principal] == nil else { return moduleName }
        for vendor in Vendors.all {
            guard let sdk = vendor.sdk, let module = sdk.modules.first else { continue }
            if sdk.baseClasses.contains(where: { $0.split(separator: ".").last.map(String.init) == principal }) {
                return module
            }
        }
        return moduleName
    }

    static let osModuleMap = """
        module os {
            module log { header "os_log.h" export * }
            module signpost { header "os_log.h" export * }
            export *
        }

        """

    /// What the compiler needs besides `-I Modules` for the SDK's modules: the C modules they import, as SwiftPM
    /// mapped them in the SDK's build folder (OpenCombine's helpers, `COpenCombineHelpers`), and Apple's module
    /// names the SDK builds under another name (`Combine` is RichPushCombine: a module named Combine in the SDK's
    /// build would change how OpenCombine builds, see Compatibility/Package.swift).
    static func sdkModuleArguments(folder: String, modules: String) -> [String] {
        let maps = ["COpenCombineHelpers"].map { folder + "/\($0).build/module.modulemap" }
            .filter { FileManager.default.fileExists(atPath: $0) }
            .flatMap { ["-Xcc", "-fmodule-map-file=" + $0] }
        let aliases = [("Combine", "RichPushCombine")]
            .filter { FileManager.default.fileExists(atPath: modules + "/\($0.1).swiftmodule") }
            .flatMap { ["-module-alias", "\($0.0)=\($0.1)"] }
        return maps + aliases
    }

    /// Apple's SQLite3 module (the SQLite C API), over the system's libsqlite3: Compatibility/Sources/SQLite3's map.
    static let sqliteModuleMap = """
        module SQLite3 [system] {
            header "SQLite3.h"
            link "sqlite3"
            export *
        }

        """

    /// A source file, by the path the user's folder gives it.
    struct Source: Sendable {
        var path: String
        var bytes: [UInt8]
    }

    /// The Swift files' bytes; a `.swift` name that is not a regular file (a FIFO, a device, a folder) is an error
    /// naming it, never opened.
    static func read(_ paths: [String], limit: Int = maxSources) throws(Failure) -> [Source] {
        guard paths.count <= limit else {
            throw Failure(description: "\(paths.count) Swift files; an extension has at most \(limit)")
        }
        var sources: [Source] = []
        for path in paths {
            var status = stat()
            guard stat(path, &status) == 0 else {
                throw Failure(description: "\(path): cannot be read (\(String(cString: strerror(errno)).lowercased()))")
            }
            guard (status.st_mode & S_IFMT) == S_IFREG else {
                let kind =
                    switch status.st_mode & S_IFMT {
                    case S_IFIFO: "a FIFO"
                    case S_IFDIR: "a folder"
                    case S_IFCHR, S_IFBLK: "a device"
                    case S_IFSOCK: "a socket"
                    default: "not a file"
                    }
                throw Failure(description: "\(path): \(kind), not a source file")
            }
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

    /// The folder's Swift files (``ExtensionInput/folder(_:extraSources:)``), read.
    static func sources(in folder: String) throws(Failure) -> [Source] {
        try read(ExtensionInput.folder(folder).swiftFiles)
    }

    /// The principal class: Info.plist's `NSExtensionPrincipalClass`, else the one class of the sources that descends
    /// from `UNNotificationServiceExtension` or a vendor's base class and that no other extends.
    static func principalClass(of input: ExtensionInput, sources: [Source]) throws(Failure) -> String {
        if let declared = input.declaredPrincipalClass { return declared.name }
        let (found, candidates) = PrincipalClassFinder.find(
            in: sources.map { String(decoding: $0.bytes, as: UTF8.self) })
        if let found { return found }
        if candidates.isEmpty {
            throw Failure(
                description:
                    "\(input.label): no subclass of UNNotificationServiceExtension (or of a vendor's base class richpush emulates) found; name the class with --principal-class"
            )
        }
        throw Failure(
            description:
                "\(input.label): \(candidates.count) subclasses of UNNotificationServiceExtension (\(candidates.joined(separator: ", "))); name one with --principal-class or in Info.plist's NSExtensionPrincipalClass"
        )
    }

    /// The principal class of a folder (``principalClass(of:sources:)``).
    static func principalClass(in folder: String, sources: [Source]) throws(Failure) -> String {
        try principalClass(of: ExtensionInput.folder(folder), sources: sources)
    }

    /// A hash of everything the executable depends on: richpush's version, the compiler's, the principal class, the
    /// compatibility library and the sources.
    static func cacheKey(
        sources: [Source], principal: String, library: String, compiler: String,
        libraries: [(module: LibraryModule, sources: [Source])] = []
    ) throws(Failure) -> String {
        var hasher = SHA256()
        hasher.update(
            data: Array(
                "richpush \(RichPushVersion.current)\nhost protocol \(HostProtocol.version)\n\(compiler)\n\(principal)\n"
                    .utf8
            ))
        var status = stat()
        if stat(library, &status) == 0 {
            hasher.update(data: Array("\(status.st_size) \(status.st_mtim.tv_sec).\(status.st_mtim.tv_nsec)\n".utf8))
        }
        for source in sources {
            hasher.update(data: Array("\(source.path)\n\(source.bytes.count)\n".utf8))
            hasher.update(data: source.bytes)
        }
        // Every source that goes into a library the extension links, by module.
        for (module, sources) in libraries {
            hasher.update(data: Array("library \(module.name) \(sources.count)\n".utf8))
            for source in sources {
                hasher.update(data: Array("\(source.path)\n\(source.bytes.count)\n".utf8))
                hasher.update(data: source.bytes)
            }
        }
        return hasher.finalize().prefix(12).map { String(format: "%02x", $0) }.joined()
    }

    /// One line per import or API the compatibility modules do not provide (``BuildDiagnostics``).
    static func unsupported(in diagnostics: String) -> [String] { BuildDiagnostics.unsupported(in: diagnostics) }

    /// What `swiftc --version` says (its output, trimmed), asked once per compiler and process.
    static func compilerVersion(_ compiler: String = findTool("swiftc")) async -> String {
        if let known = knownVersions.withLock({ $0[compiler] }) { return known }
        let (status, output) = await run(compiler, ["--version"], ownTemporaryFolder: true)
        let version =
            status == 0
            ? output.trimmingCharacters(in: .whitespacesAndNewlines) : "unknown (\(compiler): status \(status))"
        knownVersions.withLock { $0[compiler] = version }
        return version
    }

    private static let knownVersions = Mutex<[String: String]>([:])

    /// A tool of the Swift toolchain (`swiftc`, `swift`) on PATH.
    static func findTool(_ name: String) -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") {
            let candidate = "\(folder)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return "/usr/bin/\(name)"
    }

    /// Runs a command to its end: its status, and its output and errors together.
    ///
    /// With `ownTemporaryFolder` the tool gets a temporary folder of its own (`TMPDIR`), removed when it ends: the
    /// Swift driver leaves a `TemporaryDirectory.XXXXXX` behind for every `swiftc` it runs (`--version`, each
    /// compile). Not for `swift build`: SwiftPM keeps its locks between processes in the temporary folder
    /// (`_…_.build.lock`), and concurrent builds of the compatibility package, each with a folder of its own, failed
    /// with "database is locked" (a fresh clone's test run, 10 tests at once).
    static func run(_ executable: String, _ arguments: [String], ownTemporaryFolder: Bool = false) async -> (
        Int32, String
    ) {
        var template = Array((FileManager.default.temporaryDirectory.path + "/richpush-tool-XXXXXX").utf8CString)
        let scratch =
            ownTemporaryFolder
            ? template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }.map { String(cString: $0) } : nil
        defer { if let scratch { try? FileManager.default.removeItem(atPath: scratch) } }
        return await withCheckedContinuation { continuation in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
            if let scratch {
                var environment = ProcessInfo.processInfo.environment
                environment["TMPDIR"] = scratch
                process.environment = environment
            }
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
