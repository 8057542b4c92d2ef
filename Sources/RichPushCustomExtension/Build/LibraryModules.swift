import Crypto
import Foundation
import RichPushFiles
import RichPushRules
import RichPushXcodeProject

/// A module the extension imports that its own repository builds: a framework or library target of the project, or
/// a Swift target of a local package (or of a local package that one depends on). richpush compiles each, in
/// dependency order, into a static library before the extension, with the same modules and the same messages.
public struct LibraryModule: Sendable, Equatable {
    /// The name `import` uses.
    public var name: String
    /// Its Swift files, as the user's paths, sorted.
    public var swiftFiles: [String]
    /// How the user knows it, for messages: "framework target SharedKit", "target ChatCore of package ChatKit".
    public var origin: String

    public init(name: String, swiftFiles: [String], origin: String) {
        self.name = name
        self.swiftFiles = swiftFiles
        self.origin = origin
    }
}

/// The modules of local Swift packages an extension target links, read from each package's manifest as SwiftPM
/// evaluates it (`swift package dump-package`, which writes nothing into the package), in dependency order:
/// a product's targets, their targets and products, and the local packages those come from (`.package(path:)`).
///
/// A package richpush emulates (a vendor's SDK: firebase-ios-sdk, Braze, …) is the compatibility module, not built;
/// a remote package is fetched as SwiftPM would, into richpush's cache, and read like a local one (or named in one
/// line with SwiftPM's reason); a binary, system, macro or C-language target is named as not covered.
///
/// SwiftPM's manifest format: https://docs.swift.org/package-manager/PackageDescription/PackageDescription.html
/// (a target's default path is `Sources/NAME`, also `Source`, `src` or `srcs`; `sources` and `exclude` are relative
/// to it).
struct LocalPackages {
    /// At most this many packages and targets are read: a real extension's local packages are a handful.
    static let maxPackages = 32
    static let maxModules = 128

    /// What the walk found: the modules in build order, and a sentence for each thing it could not build.
    struct Walk: Sendable {
        var modules: [LibraryModule] = []
        var notes: [String] = []
    }

    /// A package's manifest, as far as richpush needs it.
    struct Manifest: Sendable {
        struct Target: Sendable {
            enum Dependency: Sendable {
                case byName(String)
                case target(String)
                case product(String, package: String?)
            }
            var name: String
            var type: String
            var path: String?
            var sources: [String]?
            var exclude: [String]
            var dependencies: [Dependency]
        }
        var folder: String
        var name: String
        var targets: [String: Target]
        var products: [String: [String]]
        /// A package it fetches: where from, and its version requirement as the manifest says it
        /// (`"1.2.0"..<"2.0.0"`, `exact: "1.2.0"`, `branch: "main"`), nil when richpush cannot say it again.
        struct Remote: Sendable {
            var identity: String
            var url: String
            var requirement: String?
        }
        /// Its dependencies by identity: a local folder, or a remote package.
        var localDependencies: [String: String]
        var remoteDependencies: [String: Remote]
    }

    let swift: String
    /// Where remote packages are resolved (a folder of richpush's cache), or nil to fetch nothing.
    let resolveFolder: String?
    private var manifests: [String: Manifest] = [:]
    private var walk = Walk()
    private var visited: Set<String> = []
    /// Remote packages fetched, by identity: their checkouts; and those that could not be, with SwiftPM's reason.
    private var fetched: [String: String] = [:]
    private var unfetched: [String: String] = [:]
    /// Manifests that could not be read (said once).
    private var unreadable: Set<String> = []
    /// The local packages the project itself names, by identity (their folder's name): as in Xcode, a dependency of
    /// that identity anywhere in the graph is that package (Metatext's `ServiceLayer` depends on `.package(path:
    /// "DB")`, which is the project's `DB`, not a folder inside ServiceLayer).
    private var overrides: [String: String] = [:]

    init(swift: String, resolveFolder: String?) {
        self.swift = swift
        self.resolveFolder = resolveFolder
    }

    /// A product the extension target links from a local package: the package's folder, or the folders of the
    /// manifests that may hold it (a product of a package the project does not name, found in the workspace).
    struct Product: Sendable, Equatable {
        var folders: [String]
        var product: String
    }

    /// The modules `products` need, in build order.
    static func modules(for products: [Product], swift: String, resolveFolder: String? = nil) async -> Walk {
        var packages = LocalPackages(swift: swift, resolveFolder: resolveFolder)
        for folder in products.flatMap(\.folders) {
            let identity = (folder as NSString).lastPathComponent.lowercased()
            if packages.overrides[identity] == nil { packages.overrides[identity] = folder }
        }
        for wanted in products {
            if wanted.folders.count == 1 {
                await packages.visit(product: wanted.product, in: wanted.folders[0], from: nil)
                continue
            }
            var found = false
            for folder in wanted.folders {
                guard let manifest = await packages.manifest(folder, for: wanted.product),
                    manifest.products[wanted.product] != nil
                else { continue }
                await packages.visit(product: wanted.product, in: folder, from: nil)
                found = true
                break
            }
            if !found {
                packages.walk.notes.append(
                    "\(wanted.product): a Swift package product of the target that no Package.swift beside the project declares; a third-party library richpush does not provide"
                )
            }
        }
        var seen: Set<String> = []
        packages.walk.notes = packages.walk.notes.filter { seen.insert($0).inserted }
        return packages.walk
    }

    /// Adds a product's targets (and what they depend on) after reading its package's manifest.
    private mutating func visit(product: String, in folder: String, from: String?) async {
        guard let manifest = await manifest(folder, for: from ?? product) else { return }
        guard let targets = manifest.products[product] else {
            let known = manifest.products.keys.sorted()
            walk.notes.append(
                "package \(manifest.name) (\(folder)) has no product \(product)"
                    + (known.isEmpty ? "" : " (its products: \(known.joined(separator: ", ")))"))
            return
        }
        for target in targets { await visit(target: target, of: manifest) }
    }

    private mutating func visit(target name: String, of manifest: Manifest) async {
        let key = manifest.folder + "\u{0}" + name
        guard visited.insert(key).inserted, walk.modules.count < Self.maxModules else { return }
        guard let target = manifest.targets[name] else {
            walk.notes.append("package \(manifest.name): no target \(name)")
            return
        }
        for dependency in target.dependencies {
            switch dependency {
            case .target(let other):
                await visit(target: other, of: manifest)
            case .byName(let other):
                // SwiftPM's byName: a target of this package, else a product of one it depends on named alike.
                if manifest.targets[other] != nil {
                    await visit(target: other, of: manifest)
                } else {
                    await visit(product: other, package: nil, of: manifest)
                }
            case .product(let product, let package):
                await visit(product: product, package: package, of: manifest)
            }
        }
        let origin = "target \(name) of package \(manifest.name)"
        switch target.type {
        case "regular":
            break
        case "binary":
            walk.notes.append("\(origin): a binary framework (XCFramework), which cannot be linked on Linux")
            return
        case "test", "executable", "plugin":
            return
        default:
            walk.notes.append("\(origin): a \(target.type) target, which richpush does not build")
            return
        }
        let files = sources(of: target, in: manifest)
        guard !files.swift.isEmpty else {
            if files.cFamily {
                walk.notes.append(
                    "\(origin): written in C or Objective-C, which is not covered (richpush compiles Swift)")
            } else {
                walk.notes.append("\(origin): no Swift files")
            }
            return
        }
        walk.modules.append(LibraryModule(name: name, swiftFiles: files.swift, origin: origin))
    }

    /// A product a target names: from a local package it depends on (read too), provided by richpush (a vendor's SDK),
    /// or from a remote package, fetched as SwiftPM would (``fetch(_:_:product:of:)``) and then read as a local one.
    private mutating func visit(product: String, package: String?, of manifest: Manifest) async {
        let identity = package?.lowercased()
        if BuildDiagnostics.providedModules.contains(product) {
            walk.notes.append(
                "\(product): richpush's own module of that name stands for the product \(manifest.name) depends on (not built from its package)"
            )
            return
        }
        if let identity, let remote = manifest.remoteDependencies[identity] {
            if let folder = overrides[remote.identity] {
                await visit(product: product, in: folder, from: product)
                return
            }
            if Vendors.all.contains(where: { $0.sdk?.packages.contains(remote.identity) == true }) { return }
            if let checkout = await fetch(remote.identity, remote, product: product, of: manifest) {
                await visit(product: product, in: checkout, from: product)
            }
            return
        }
        let candidates =
            (identity.flatMap { manifest.localDependencies[$0].map { [$0] } }
            ?? Array(Set(manifest.localDependencies.values)).sorted()).map {
                overrides[($0 as NSString).lastPathComponent.lowercased()] ?? $0
            }
        for folder in candidates {
            guard let other = await self.manifest(folder, for: product) else { continue }
            if other.products[product] != nil {
                await visit(product: product, in: folder, from: product)
                return
            }
        }
        if identity == nil, !manifest.remoteDependencies.isEmpty {
            // byName naming a product of a remote package: the one whose fetched manifest declares it, trying first
            // (and only, when there is one) the packages named like the product (CodableBloomFilter from
            // codable-bloom-filter), as byName most often means.
            func simple(_ text: String) -> String { text.lowercased().filter { $0.isLetter || $0.isNumber } }
            var unique: [String: Manifest.Remote] = [:]
            for remote in manifest.remoteDependencies.values { unique[remote.identity] = remote }
            let all = unique.values.sorted { $0.identity < $1.identity }
            let alike = all.filter { simple($0.identity).contains(simple(product)) }
            for remote in alike.isEmpty ? all : alike {
                guard let checkout = await fetch(remote.identity, remote, product: product, of: manifest),
                    let other = await self.manifest(checkout, for: product), other.products[product] != nil
                else { continue }
                await visit(product: product, in: checkout, from: product)
                return
            }
            if !alike.isEmpty { return }
            walk.notes.append("package \(manifest.name): no package it depends on has a product \(product)")
        } else if identity != nil {
            walk.notes.append("package \(manifest.name): no package \(package ?? "") with product \(product)")
        }
    }

    /// How long one remote package may take to resolve (SwiftPM clones it and what it depends on).
    static let resolveSeconds = 300
    /// How long reading one manifest may take (SwiftPM compiles and runs it: a few seconds).
    static let manifestSeconds = 120

    /// The checkout of a remote package a local package depends on, resolved as SwiftPM resolves it on the user's
    /// machine: a package of richpush's own in its cache depends on it with the manifest's requirement and product,
    /// and `swift package resolve` fetches it and what it depends on; `show-dependencies` says where each is.
    /// Nil, said once in a line naming the package and SwiftPM's reason, when it cannot be fetched.
    private mutating func fetch(_ identity: String, _ remote: Manifest.Remote, product: String, of manifest: Manifest)
        async -> String?
    {
        if let checkout = fetched[identity] { return checkout }
        if unfetched[identity] != nil { return nil }
        func fail(_ why: String) -> String? {
            unfetched[identity] = why
            walk.notes.append("package \(manifest.name) depends on \(remote.url), which could not be fetched (\(why))")
            return nil
        }
        guard let resolveFolder else { return fail("richpush fetches nothing here") }
        guard let requirement = remote.requirement, Self.isPlain(remote.url), Self.isPlain(product),
            Self.isPlain(identity)
        else { return fail("its requirement is not one richpush can restate") }
        let manifestText = """
            // swift-tools-version:5.9
            // Written by richpush to fetch what \(manifest.name) depends on, as SwiftPM would.
            import PackageDescription

            let package = Package(
                name: "RichPushFetch",
                dependencies: [.package(url: "\(remote.url)", \(requirement))],
                targets: [.target(name: "RichPushFetch", dependencies: [.product(name: "\(product)", package: "\(identity)")])]
            )

            """
        let digest = SHA256.hash(data: Array(manifestText.utf8)).prefix(8).map { String(format: "%02x", $0) }
        let folder = resolveFolder + "/\(identity)-\(digest.joined())"
        do {
            try FileManager.default.createDirectory(
                atPath: folder + "/Sources/RichPushFetch", withIntermediateDirectories: true)
            try manifestText.write(toFile: folder + "/Package.swift", atomically: true, encoding: .utf8)
            try "".write(toFile: folder + "/Sources/RichPushFetch/Fetch.swift", atomically: true, encoding: .utf8)
        } catch {
            return fail("cannot write \(folder): \(error.localizedDescription)")
        }
        let (status, output) = await ExtensionBuilder.run(
            "/usr/bin/timeout", ["\(Self.resolveSeconds)", swift, "package", "--package-path", folder, "resolve"])
        guard status == 0 else {
            let reason =
                status == 124
                ? "SwiftPM did not finish in \(Self.resolveSeconds) s"
                : Self.firstError(in: output) ?? "swift package resolve exited with status \(status)"
            return fail(reason)
        }
        let (shown, tree) = await ExtensionBuilder.run(
            swift, ["package", "--package-path", folder, "show-dependencies", "--format", "json"])
        guard shown == 0, let start = tree.firstIndex(of: "{"),
            let root = try? JSONSerialization.jsonObject(with: Data(tree[start...].utf8)) as? [String: Any]
        else { return fail("swift package show-dependencies did not say where it is") }
        func collect(_ node: [String: Any]) {
            for child in node["dependencies"] as? [[String: Any]] ?? [] {
                if let id = child["identity"] as? String, let path = child["path"] as? String {
                    fetched[id.lowercased()] = fetched[id.lowercased()] ?? path
                }
                collect(child)
            }
        }
        collect(root)
        guard let checkout = fetched[identity] else { return fail("SwiftPM resolved it under another name") }
        return checkout
    }

    /// SwiftPM's reason, for one line: its first `error:` line (with what follows it when the line ends in a colon,
    /// as "Failed to clone repository URL:" does), else the first line that mentions an error.
    static func firstError(in output: String) -> String? {
        let lines = output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        guard
            let index = lines.firstIndex(where: { $0.hasPrefix("error:") })
                ?? lines.firstIndex(where: { $0.contains("error:") })
        else { return nil }
        var text = lines[index]
        // "Failed to clone repository URL:" is followed by git's own words; its `fatal:` line says why.
        if text.hasSuffix(":"), index + 1 < lines.count {
            text += " " + (lines[(index + 1)...].first { $0.hasPrefix("fatal:") } ?? lines[index + 1])
        }
        return String(text.prefix(300))
    }

    /// A string richpush can put between quotes in a manifest it writes.
    static func isPlain(_ text: String) -> Bool {
        !text.isEmpty && !text.contains { $0 == "\"" || $0 == "\\" || $0.isNewline }
    }

    /// The requirement of a `sourceControl` dependency as a manifest writes it, from dump-package's form.
    static func requirement(_ object: [String: Any]?) -> String? {
        guard let object else { return nil }
        func quoted(_ value: Any?) -> String? {
            guard let text = value as? String, isPlain(text) else { return nil }
            return "\"\(text)\""
        }
        if let range = (object["range"] as? [[String: Any]])?.first, let lower = quoted(range["lowerBound"]),
            let upper = quoted(range["upperBound"])
        {
            return "\(lower)..<\(upper)"
        }
        for key in ["exact", "branch", "revision"] {
            if let value = quoted((object[key] as? [Any])?.first) { return "\(key): \(value)" }
        }
        return nil
    }

    /// The manifest of the package in `folder`, read once; nil (said) when it cannot be read.
    private mutating func manifest(_ folder: String, for purpose: String) async -> Manifest? {
        if let known = manifests[folder] { return known }
        guard manifests.count < Self.maxPackages, !unreadable.contains(folder) else { return nil }
        func fail(_ why: String) -> Manifest? {
            unreadable.insert(folder)
            walk.notes.append(why)
            return nil
        }
        let file = folder + "/Package.swift"
        switch FileNode.following(file) {
        case .success(let node) where node.isRegularFile:
            break
        case .success(let node):
            return fail("\(file): \(node.kind.phrase), not a package manifest")
        case .failure(let problem) where problem.code == ENOENT || problem.code == ENOTDIR:
            return fail("\(folder): no Package.swift, so the local package of \(purpose) cannot be built")
        case .failure(let problem):
            return fail(
                "\(file): cannot be read (\(problem.message.lowercased())), so the local package of \(purpose) cannot be built"
            )
        }
        // SwiftPM that does not finish is stopped, as a resolution is. (A manifest that never ends is not: SwiftPM
        // runs it in a process group of its own, which outlives `swift package` and keeps its output open.)
        let (status, output) = await ExtensionBuilder.run(
            "/usr/bin/timeout",
            ["\(Self.manifestSeconds)", swift, "package", "dump-package", "--package-path", folder])
        guard status == 0, let manifest = Self.parse(output, folder: folder) else {
            let first =
                status == 124
                ? "SwiftPM did not finish reading it in \(Self.manifestSeconds) s"
                : output.split(separator: "\n").first { $0.contains("error:") }.map(String.init)
                    ?? "swift package dump-package exited with status \(status)"
            return fail("\(file) cannot be read by SwiftPM: \(first)")
        }
        manifests[folder] = manifest
        return manifest
    }

    /// `dump-package`'s JSON (SwiftPM's own encoding of the manifest: a dependency is `{"byName": [name, condition]}`,
    /// `{"target": …}` or `{"product": [name, package, aliases, condition]}`).
    static func parse(_ text: String, folder: String) -> Manifest? {
        // SwiftPM may print warnings before the JSON.
        guard let start = text.firstIndex(of: "{"),
            let object = try? JSONSerialization.jsonObject(with: Data(text[start...].utf8)) as? [String: Any]
        else { return nil }
        var manifest = Manifest(
            folder: folder, name: object["name"] as? String ?? (folder as NSString).lastPathComponent, targets: [:],
            products: [:],
            localDependencies: [:], remoteDependencies: [:])
        for entry in object["targets"] as? [[String: Any]] ?? [] {
            guard let name = entry["name"] as? String else { continue }
            var dependencies: [Manifest.Target.Dependency] = []
            for dependency in entry["dependencies"] as? [[String: Any]] ?? [] {
                if let values = dependency["byName"] as? [Any], let name = values.first as? String {
                    dependencies.append(.byName(name))
                } else if let values = dependency["target"] as? [Any], let name = values.first as? String {
                    dependencies.append(.target(name))
                } else if let values = dependency["product"] as? [Any], let name = values.first as? String {
                    dependencies.append(.product(name, package: values.count > 1 ? values[1] as? String : nil))
                }
            }
            manifest.targets[name] = Manifest.Target(
                name: name, type: entry["type"] as? String ?? "regular", path: entry["path"] as? String,
                sources: entry["sources"] as? [String], exclude: entry["exclude"] as? [String] ?? [],
                dependencies: dependencies)
        }
        for product in object["products"] as? [[String: Any]] ?? [] {
            guard let name = product["name"] as? String else { continue }
            manifest.products[name] = product["targets"] as? [String] ?? []
        }
        for dependency in object["dependencies"] as? [[String: Any]] ?? [] {
            if let local = (dependency["fileSystem"] as? [[String: Any]])?.first,
                let identity = local["identity"] as? String, let path = local["path"] as? String
            {
                for key in [identity, local["nameForTargetDependencyResolutionOnly"] as? String].compactMap(\.self) {
                    manifest.localDependencies[key.lowercased()] = path
                }
            } else if let remote = (dependency["sourceControl"] as? [[String: Any]])?.first,
                let identity = remote["identity"] as? String
            {
                let location = remote["location"] as? [String: Any]
                let url =
                    ((location?["remote"] as? [[String: Any]])?.first?["urlString"] as? String)
                    ?? (location?["local"] as? [String])?.first ?? identity
                let entry = Manifest.Remote(
                    identity: identity.lowercased(), url: url,
                    requirement: requirement(remote["requirement"] as? [String: Any]))
                // `.package(name: "X", url: …)`: targets may name it `package: "X"`.
                for key in [identity, remote["nameForTargetDependencyResolutionOnly"] as? String].compactMap(\.self) {
                    manifest.remoteDependencies[key.lowercased()] = entry
                }
            } else if let registry = (dependency["registry"] as? [[String: Any]])?.first,
                let identity = registry["identity"] as? String
            {
                manifest.remoteDependencies[identity.lowercased()] = Manifest.Remote(
                    identity: identity.lowercased(), url: identity, requirement: nil)
            }
        }
        return manifest
    }

    /// The Swift files of a target, and whether it has C-family files: under its path (`path`, else `Sources/NAME`,
    /// `Source/NAME`, `src/NAME`, `srcs/NAME`), limited to `sources`, without `exclude`.
    private func sources(of target: Manifest.Target, in manifest: Manifest) -> (swift: [String], cFamily: Bool) {
        let root = manifest.folder
        let folder: String
        if let path = target.path {
            folder = path.hasPrefix("/") ? path : root + "/" + path
        } else {
            folder =
                ["Sources", "Source", "src", "srcs"].map { root + "/" + $0 + "/" + target.name }
                .first { FileManager.default.fileExists(atPath: $0) } ?? root + "/Sources/" + target.name
        }
        let roots = (target.sources ?? [""]).map { $0.isEmpty ? folder : folder + "/" + $0 }
        let excluded = target.exclude.map { folder + "/" + $0 }
        var swift: [String] = []
        var cFamily = false
        for start in roots {
            for path in Self.files(under: start) {
                if excluded.contains(where: { path == $0 || path.hasPrefix($0 + "/") }) { continue }
                if path.hasSuffix(".swift") {
                    swift.append(path)
                } else if [".c", ".m", ".mm", ".cpp", ".h"].contains(where: path.hasSuffix) {
                    cFamily = true
                }
            }
        }
        return (Array(Set(swift)).sorted(), cFamily)
    }

    /// The regular files under `path` (or `path` itself), hidden ones skipped; at most 4,096.
    private static func files(under path: String) -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return [] }
        guard isDirectory.boolValue else { return [path] }
        guard let walker = FileManager.default.enumerator(atPath: path) else { return [] }
        var found: [String] = []
        while let relative = walker.nextObject() as? String, found.count < 4096 {
            if (relative as NSString).lastPathComponent.hasPrefix(".") {
                walker.skipDescendants()
                continue
            }
            found.append(path + "/" + relative)
        }
        return found
    }
}
