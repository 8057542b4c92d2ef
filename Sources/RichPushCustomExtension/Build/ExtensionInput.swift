import Foundation
import RichPushFiles
import RichPushRules
import RichPushXcodeProject

/// What richpush compiles for a team's extension, and what it knows of it before compiling: the Swift files (from a
/// folder, the files the app shares with it, or an Xcode target), the principal class Info.plist declares, the
/// modules every file sees without importing them, and what it will not compile (Objective-C), said once.
public struct ExtensionInput: Sendable, Equatable {
    /// The extension as the user named it: a folder or a project (the result's `extension.source`).
    public var label: String
    /// The Swift files, in a stable order, as the user's paths.
    public var swiftFiles: [String]
    /// `NSExtensionPrincipalClass` without `$(PRODUCT_MODULE_NAME).`, and where it was read.
    public var declaredPrincipalClass: (name: String, from: String)?
    /// Modules every file sees without importing them: `FoundationNetworking` (on iOS, Foundation has URLSession),
    /// `RichPushFoundationOverlay` (the rest of iOS's Foundation an extension uses: `UserDefaults.setValue(_:forKey:)`),
    /// and the vendors' modules a bridging header imports.
    public var implicitModules: [String] = ["FoundationNetworking", "RichPushFoundationOverlay"]
    /// What richpush says before it compiles: Objective-C files and headers it does not compile.
    public var notes: [String] = []
    /// The framework and library targets of the project the extension links, compiled before it in this order.
    public var libraries: [LibraryModule] = []
    /// The local Swift packages' products it links, whose modules are compiled before the libraries.
    var localProducts: [LocalPackages.Product] = []
    /// Read from an Xcode project (its target's files), not a folder.
    public var fromProject = false

    public init(label: String, swiftFiles: [String], declaredPrincipalClass: (name: String, from: String)? = nil) {
        self.label = label
        self.swiftFiles = swiftFiles
        self.declaredPrincipalClass = declaredPrincipalClass
    }

    public static func == (lhs: ExtensionInput, rhs: ExtensionInput) -> Bool {
        lhs.label == rhs.label && lhs.swiftFiles == rhs.swiftFiles
            && lhs.declaredPrincipalClass?.name == rhs.declaredPrincipalClass?.name
            && lhs.implicitModules == rhs.implicitModules && lhs.notes == rhs.notes && lhs.libraries == rhs.libraries
            && lhs.localProducts == rhs.localProducts
    }

    public typealias Failure = ExtensionBuilder.Failure

    /// A folder as Xcode's extension target folder holds it: every `.swift` file under it (hidden folders skipped,
    /// symbolic links followed), its `Info.plist`, a bridging header; and `extraSources`, files or folders of the app's
    /// that the target shares (`--extension-sources`).
    public static func folder(_ folder: String, extraSources: [String] = []) throws(Failure) -> ExtensionInput {
        let found = try listing(folder)
        var swift = found.swift
        var others = found.others
        for extra in extraSources {
            if FileNode.exists(extra), (try? FileNode.itself(extra).get())?.isDirectory == true {
                let more = try listing(extra)
                swift += more.swift
                others += more.others
            } else {
                guard extra.hasSuffix(".swift") else {
                    throw Failure(description: "\(extra): --extension-sources takes Swift files or folders")
                }
                swift.append(extra)
            }
        }
        var seen = Set<String>()
        swift = swift.filter { seen.insert(URL(fileURLWithPath: $0).standardizedFileURL.path).inserted }
        guard !swift.isEmpty else {
            if others.contains(where: { [".m", ".mm"].contains(where: $0.hasSuffix) }) {
                throw Failure(
                    description:
                        "\(folder): Objective-C is not covered (richpush compiles Swift extensions; this one is written in Objective-C)"
                )
            }
            throw Failure(description: "\(folder): no .swift files")
        }
        var input = ExtensionInput(label: folder, swiftFiles: swift.sorted())
        input.declaredPrincipalClass = try declaredPrincipalClass(inPlist: folder + "/Info.plist")
        input.readObjectiveC(others)
        return input
    }

    /// The extension a path names: an Xcode project (an `.xcodeproj`, an `.xcworkspace`, or a folder holding one), whose
    /// Notification Service Extension target's own sources are compiled wherever they live (`target` picks one of
    /// several); else a folder (``folder(_:extraSources:)``). `extraSources` adds files either way.
    public static func named(_ path: String, target: String? = nil, extraSources: [String] = []) throws(Failure)
        -> ExtensionInput
    {
        let found: ExtensionTarget
        do {
            found = try ExtensionTarget.find(in: path, targetName: target)
        } catch  where error.kind == .noProject && target == nil {
            return try folder(path, extraSources: extraSources)
        } catch {
            throw Failure(description: error.description)
        }
        return try project(found, label: path, extraSources: extraSources)
    }

    /// A project's extension target: its Swift files, its Info.plist's principal class, its bridging header, and its
    /// dependencies mapped onto the vendors' modules (anything else named in one line).
    static func project(_ target: ExtensionTarget, label: String, extraSources: [String]) throws(Failure)
        -> ExtensionInput
    {
        var swift = target.swiftFiles
        for extra in extraSources {
            swift += try folder(extra).swiftFiles
        }
        guard !swift.isEmpty else {
            if !target.objectiveCFiles.isEmpty {
                throw Failure(
                    description:
                        "\(label): target \(target.name) is written in Objective-C, which is not covered (richpush compiles Swift extensions)"
                )
            }
            throw Failure(description: "\(label): target \(target.name) compiles no Swift files")
        }
        var input = ExtensionInput(label: label, swiftFiles: swift)
        input.fromProject = true
        if let declared = target.principalClass {
            let name = declared.split(separator: ".").last.map(String.init) ?? declared
            input.declaredPrincipalClass = (name, target.infoPlistPath ?? target.projectPath)
        }
        input.readObjectiveC(target.objectiveCFiles + (target.bridgingHeader.map { [$0] } ?? []))
        input.notes += target.notes
        for missing in target.missingFiles where missing.hasSuffix(".swift") {
            input.notes.append(
                "\(missing): the project compiles it into \(target.name), but it is not there (a generated file?)")
        }
        input.readLinkedTargets(target.linkedTargets)
        input.localProducts = Self.localProducts(target.dependencies, projectPath: target.projectPath)
        let products = input.localProducts
        input.notes += Self.libraries(
            target.dependencies.filter { dependency in
                guard case .packageProduct(let product) = dependency else { return true }
                return !products.contains { $0.product == product }
            })
        return input
    }

    /// The project's framework and library targets the extension links become modules built before it; what they
    /// hold that richpush does not compile is said as for the extension.
    mutating func readLinkedTargets(_ targets: [ExtensionTarget.LinkedTarget]) {
        for target in targets {
            notes += target.notes
            for missing in target.missingFiles where missing.hasSuffix(".swift") {
                notes.append(
                    "\(missing): the project compiles it into \(target.name), but it is not there (a generated file?)")
            }
            guard !target.swiftFiles.isEmpty else {
                notes.append(
                    target.objectiveCFiles.isEmpty
                        ? "\(target.kind == .target ? "framework target" : "development pod") \(target.name) compiles no Swift files"
                        : "\(target.kind == .target ? "framework target" : "development pod") \(target.name) is written in Objective-C, which is not covered (richpush compiles Swift)"
                )
                continue
            }
            if !target.objectiveCFiles.isEmpty {
                let names = target.objectiveCFiles.map { ($0 as NSString).lastPathComponent }.sorted()
                notes.append(
                    "Objective-C is not covered: \(names.joined(separator: ", ")) of \(target.name) (richpush compiles the Swift files only)"
                )
            }
            let origin =
                switch target.kind {
                case .target: "framework target \(target.name)"
                case .developmentPod: "development pod \(target.name)"
                }
            libraries.append(LibraryModule(name: target.moduleName, swiftFiles: target.swiftFiles, origin: origin))
        }
    }

    /// The local packages' products the target links: a local package reference names its folder; a product of a
    /// package the project does not name (a local package of the workspace) is looked for in the manifests under the
    /// project's folder.
    static func localProducts(_ dependencies: [ExtensionTarget.Dependency], projectPath: String)
        -> [LocalPackages.Product]
    {
        var products: [LocalPackages.Product] = []
        var manifests: [String]?
        for dependency in dependencies {
            switch dependency {
            case .localPackage(let path, let product):
                products.append(LocalPackages.Product(folders: [path], product: product))
            case .packageProduct(let product) where !BuildDiagnostics.providedModules.contains(product):
                if manifests == nil {
                    manifests = packageFolders(under: (projectPath as NSString).deletingLastPathComponent)
                }
                if let manifests, !manifests.isEmpty {
                    products.append(LocalPackages.Product(folders: manifests, product: product))
                }
            default:
                continue
            }
        }
        return products
    }

    /// Folders holding a `Package.swift` under `root`, at most three levels down, skipping hidden folders and the
    /// folders tools fill (`.build`, `Pods`, `Carthage`, `DerivedData`, `node_modules`); at most 16.
    static func packageFolders(under root: String) -> [String] {
        let skipped: Set<String> = ["Pods", "Carthage", "DerivedData", "node_modules", "build"]
        // Bundles and Xcode's own folders (App.xcodeproj, Assets.xcassets, en.lproj) hold no packages.
        let bundles: Set<String> = ["xcodeproj", "xcworkspace", "xcassets", "lproj", "framework", "xcframework", "app"]
        var found: [String] = []
        var level = [root]
        for _ in 0..<4 {
            var next: [String] = []
            for folder in level {
                if FileManager.default.fileExists(atPath: folder + "/Package.swift") { found.append(folder) }
                let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
                for name in names
                where !name.hasPrefix(".") && !skipped.contains(name)
                    && !bundles.contains((name as NSString).pathExtension)
                {
                    let path = folder + "/" + name
                    if (try? FileNode.itself(path).get())?.isDirectory == true { next.append(path) }
                }
            }
            level = Array(next.prefix(256))
            if found.count >= 16 { break }
        }
        return Array(found.prefix(16))
    }

    /// One line for each library a project's extension target depends on that richpush does not provide; vendors'
    /// SDKs and Apple's frameworks are provided (or said at the import).
    static func libraries(_ dependencies: [ExtensionTarget.Dependency]) -> [String] {
        var lines: [String] = []
        func unemulated(_ name: String) -> String? {
            Vendors.unemulated.first { $0.modules.contains(name) }.map {
                "\(name): \($0.vendor)'s SDK, which richpush does not emulate"
            }
        }
        for dependency in dependencies {
            switch dependency {
            case .pod(let name):
                let pod = String(name.split(separator: "/").first ?? Substring(name))
                if pod.hasPrefix("Firebase") || Vendors.all.contains(where: { $0.sdk?.pods.contains(pod) == true }) {
                    continue
                }
                lines.append(
                    unemulated(pod) ?? "\(pod): a third-party library richpush does not provide (a pod of the target)")
            case .package(let repository, let product):
                if Vendors.all.contains(where: { $0.sdk?.packages.contains(repository.lowercased()) == true }) {
                    continue
                }
                let what = product.map { "\($0) (package \(repository))" } ?? repository
                lines.append(
                    product.flatMap(unemulated)
                        ?? "\(what): a third-party library richpush does not provide (a Swift package of the target)")
            case .packageProduct(let product):
                if BuildDiagnostics.providedModules.contains(product) { continue }
                lines.append(
                    unemulated(product)
                        ?? "\(product): a third-party library richpush does not provide (a Swift package product of the target)"
                )
            case .framework, .localPackage:
                // A local package is built with the extension (``LocalPackages``).
                continue
            }
        }
        return lines
    }

    /// The principal class an Info.plist declares, or nil when the file is absent or declares none.
    static func declaredPrincipalClass(inPlist plist: String) throws(Failure) -> (name: String, from: String)? {
        guard let data = FileManager.default.contents(atPath: plist),
            let object = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any],
            let extensionInfo = object["NSExtension"] as? [String: Any],
            let declared = extensionInfo["NSExtensionPrincipalClass"] as? String
        else { return nil }
        let name = declared.split(separator: ".").last.map(String.init) ?? declared
        guard !name.isEmpty else { throw Failure(description: "\(plist): NSExtensionPrincipalClass is empty") }
        return (name, plist)
    }

    /// Objective-C beside the Swift: a bridging header that only imports vendors' headers makes their modules
    /// visible; anything else is said once, since richpush compiles Swift only.
    mutating func readObjectiveC(_ files: [String]) {
        let code = files.filter { file in [".m", ".mm", ".c", ".cpp"].contains { file.hasSuffix($0) } }
        if !code.isEmpty {
            let names = code.map { ($0 as NSString).lastPathComponent }.sorted().joined(separator: ", ")
            notes.append("Objective-C is not covered: \(names) (richpush compiles the Swift files only)")
        }
        for header in files where header.hasSuffix(".h") {
            guard let data = FileManager.default.contents(atPath: header), data.count <= 256 * 1024 else { continue }
            var others: [String] = []
            for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
                let text = line.trimmingCharacters(in: .whitespaces)
                guard text.hasPrefix("#import") || text.hasPrefix("#include") || text.hasPrefix("@import") else {
                    if !text.isEmpty, !text.hasPrefix("//"), !text.hasPrefix("/*"), !text.hasPrefix("*"),
                        !text.hasPrefix("#if"), !text.hasPrefix("#endif"), !text.hasPrefix("#define")
                    {
                        others.append(String(text.prefix(60)))
                    }
                    continue
                }
                if let module = Self.importedModule(text), BuildDiagnostics.providedModules.contains(module) {
                    if !implicitModules.contains(module) { implicitModules.append(module) }
                } else {
                    others.append(String(text.prefix(60)))
                }
            }
            if !others.isEmpty {
                notes.append(
                    "Objective-C is not covered: \((header as NSString).lastPathComponent) has \(others.count) line(s) richpush does not read (\(others.prefix(2).joined(separator: "; ")))"
                )
            }
        }
    }

    /// The module a header line imports: `#import <OneSignal/OneSignal.h>` → OneSignal, `@import Firebase;` → Firebase.
    static func importedModule(_ line: String) -> String? {
        if line.hasPrefix("@import") {
            return line.dropFirst("@import".count).split(whereSeparator: { $0 == ";" || $0 == "." || $0 == " " })
                .first.map(String.init)
        }
        guard let open = line.firstIndex(of: "<"), let slash = line[open...].firstIndex(of: "/") else { return nil }
        return String(line[line.index(after: open)..<slash])
    }

    /// The `.swift` files and the other source files (headers, Objective-C) under `folder`.
    private static func listing(_ folder: String) throws(Failure) -> (swift: [String], others: [String]) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) else {
            throw Failure(description: "\(folder): no such folder")
        }
        guard isDirectory.boolValue else { throw Failure(description: "\(folder): not a folder") }
        guard access(folder, R_OK | X_OK) == 0 else {
            throw Failure(description: "\(folder): cannot be read (\(String(cString: strerror(errno)).lowercased()))")
        }
        // The enumerator does not enter a folder named through a symbolic link: walk its target, name the user's path.
        let target = URL(fileURLWithPath: folder).resolvingSymlinksInPath().path
        guard let walker = FileManager.default.enumerator(atPath: target) else {
            throw Failure(description: "\(folder): cannot be read")
        }
        var swift: [String] = []
        var others: [String] = []
        while let relative = walker.nextObject() as? String {
            let name = (relative as NSString).lastPathComponent
            if name.hasPrefix(".") || name.hasSuffix(".xcodeproj") || name.hasSuffix(".xcworkspace") {
                walker.skipDescendants()
                continue
            }
            let path = folder.hasSuffix("/") ? folder + relative : folder + "/" + relative
            if relative.hasSuffix(".swift") {
                swift.append(path)
            } else if [".h", ".m", ".mm", ".c", ".cpp"].contains(where: { relative.hasSuffix($0) }) {
                others.append(path)
            }
        }
        return (swift, others)
    }
}
