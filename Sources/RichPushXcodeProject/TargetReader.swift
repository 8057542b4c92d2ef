import Foundation
import RichPushFiles

/// Reads what a chosen target compiles and links: its Sources phase (file references, variant groups, Core Data
/// models) and folder-synchronized groups, its Frameworks phase and package products, its Podfile block, its
/// bridging header and its packages' pins.
enum TargetReader {
    static let cFamily: Set<String> = ["m", "mm", "c", "cc", "cpp", "cxx"]

    static func read(_ candidate: NativeTarget, others: [ProjectGraph] = []) -> ExtensionTarget {
        let graph = candidate.graph
        let settings = candidate.settings
        var notes = settings.notes
        var missing: [String] = []
        let compiled = compiledFiles(of: candidate, missing: &missing, notes: &notes)
        let swift = compiled.swift
        let objectiveC = compiled.objectiveC

        var infoPlist: String?
        if let path = candidate.infoPlistPath {
            if candidate.infoPlistExists { infoPlist = path } else { missing.append(path) }
        }
        var bridgingHeader: String?
        if let header = settings.value("SWIFT_OBJC_BRIDGING_HEADER"), !header.isEmpty {
            var path = ProjectPath.join(graph.sourceRoot, header)
            if !FileNode.exists(path), let found = ProjectPath.matchingCase(path) {
                notes.append(caseNote(path, found, root: graph.sourceRoot))
                path = found
            }
            if FileNode.following(path).map(\.isRegularFile) == .success(true) {
                bridgingHeader = path
            } else {
                missing.append(path)
            }
        }

        var linked = linkedProducts(of: candidate)
        let libraries = linkedTargets(of: candidate, others: neighbours(of: candidate.graph, known: others))
        for library in libraries {
            // What a framework target links, the extension links too (its packages are built before it).
            linked.dependencies += library.packages
        }
        let podfile = podfilePods(for: candidate, linksPods: linked.linksPods, notes: &notes)
        let developmentPods = developmentPods(podfile.pods, folders: podfile.development, notes: &notes)
        // A development pod is built from its folder (or said why not), never "a third-party library".
        let pods = podfile.pods.filter { podfile.development[String($0.split(separator: "/").first ?? "")] == nil }

        return ExtensionTarget(
            name: candidate.name, projectPath: graph.projectPath, configuration: settings.configuration,
            swiftFiles: swift.sorted(), objectiveCFiles: objectiveC.sorted(), infoPlistPath: infoPlist,
            principalClass: candidate.principalClass, extensionPointIdentifier: candidate.extensionPoint,
            productModuleName: settings.value("PRODUCT_MODULE_NAME") ?? candidate.name,
            bridgingHeader: bridgingHeader,
            dependencies: unique(pods.map(ExtensionTarget.Dependency.pod) + linked.dependencies),
            linkedTargets: developmentPods + libraries.map(\.target),
            resolvedPackages: resolvedPackages(graph: graph, locations: linked.packageLocations),
            missingFiles: unique(missing).sorted(), notes: unique(notes))
    }

    /// The Swift and C-family files a target compiles: its Sources phase (file references, variant groups) and its
    /// folder-synchronized groups, found on disk (a name in another case is found and said).
    private static func compiledFiles(of candidate: NativeTarget, missing: inout [String], notes: inout [String]) -> (
        swift: [String], objectiveC: [String]
    ) {
        let graph = candidate.graph
        var compiled: [String] = []
        let phases = graph.references(candidate.id, "buildPhases")
        let sourcesPhase = phases.first { graph.isa($0) == "PBXSourcesBuildPhase" }
        if let sourcesPhase {
            for buildFile in graph.references(sourcesPhase, "files") where builtForIOS(buildFile, in: graph) {
                guard let reference = graph.string(buildFile, "fileRef") else { continue }
                switch graph.isa(reference) {
                case "PBXVariantGroup":
                    for child in graph.references(reference, "children") {
                        place(child, in: graph, compiled: &compiled, missing: &missing, notes: &notes)
                    }
                case "PBXReferenceProxy":
                    continue
                default:
                    place(reference, in: graph, compiled: &compiled, missing: &missing, notes: &notes)
                }
            }
        }
        let folders = SynchronizedFolders(target: candidate.id, sourcesPhase: sourcesPhase, in: graph)
        compiled += folders.files
        missing += folders.missing
        notes += folders.notes

        var swift: [String] = []
        var objectiveC: [String] = []
        var seen: Set<String> = []
        for named in compiled where seen.insert(named).inserted {
            var path = named
            if !FileNode.exists(path), let found = ProjectPath.matchingCase(path) {
                notes.append(caseNote(named, found, root: graph.sourceRoot))
                path = found
            }
            let kind = ProjectPath.fileExtension(path)
            let relative = ProjectPath.relative(path, to: graph.sourceRoot)
            switch kind {
            case _ where kind == "swift" || cFamily.contains(kind):
                switch FileNode.following(path) {
                case .success(let node) where node.isRegularFile:
                    if kind == "swift" { swift.append(path) } else { objectiveC.append(path) }
                case .success(let node):
                    missing.append(path)
                    notes.append("\(relative): \(node.kind.phrase), not a source file")
                case .failure:
                    missing.append(path)
                }
            case "xcdatamodeld", "xcdatamodel":
                notes.append(
                    "\(relative): a Core Data model; Xcode generates Swift classes from it at build time, which richpush does not"
                )
            case "intentdefinition":
                notes.append(
                    "\(relative): an Intents definition; Xcode generates Swift code from it at build time, which richpush does not"
                )
            case "mlmodel", "mlpackage":
                notes.append(
                    "\(relative): a Core ML model; Xcode generates a Swift class from it at build time, which richpush does not"
                )
            default:
                continue
            }
        }
        return (swift.sorted(), objectiveC.sorted())
    }

    /// What a target links by its package products and its Frameworks phase.
    private static func linkedProducts(of candidate: NativeTarget) -> Linked {
        let graph = candidate.graph
        var linked = Linked(graph: graph)
        for product in graph.references(candidate.id, "packageProductDependencies") { linked.product(product) }
        for phase in graph.references(candidate.id, "buildPhases") where graph.isa(phase) == "PBXFrameworksBuildPhase" {
            for buildFile in graph.references(phase, "files") where builtForIOS(buildFile, in: graph) {
                if let product = graph.string(buildFile, "productRef") {
                    linked.product(product)
                } else if let reference = graph.string(buildFile, "fileRef") {
                    linked.file(reference)
                }
            }
        }
        return linked
    }

    /// The product types of a library target another target can link: a framework, a static or dynamic library.
    static let libraryProductTypes: Set<String> = [
        "com.apple.product-type.framework", "com.apple.product-type.library.static",
        "com.apple.product-type.library.dynamic",
    ]

    /// The framework and library targets that `candidate` depends on (its target dependencies and the products of
    /// targets its Frameworks phase links), each after the ones it depends on itself, with the packages each links.
    /// A product its own project does not make (`DcCore.framework` in Delta Chat's app project) is looked for in the
    /// `others`: the workspace's other projects, and the projects it references as subprojects.
    private static func linkedTargets(of candidate: NativeTarget, others: [ProjectGraph]) -> [(
        target: ExtensionTarget.LinkedTarget, packages: [ExtensionTarget.Dependency]
    )] {
        let graphs = [candidate.graph] + others.filter { $0.projectPath != candidate.graph.projectPath }
        var byID: [String: NativeTarget] = [:]
        var byProduct: [String: NativeTarget] = [:]
        /// Products by their file name (`DcCore.framework`), across the projects: the first project's first.
        var byProductName: [String: NativeTarget] = [:]
        for graph in graphs {
            for target in NativeTarget.all(in: graph) {
                byID[graph.projectPath + "\u{0}" + target.id] = byID[graph.projectPath + "\u{0}" + target.id] ?? target
                guard let product = graph.string(target.id, "productReference") else { continue }
                byProduct[graph.projectPath + "\u{0}" + product] = target
                if let name = graph.string(product, "path").map(ProjectPath.lastComponent), byProductName[name] == nil {
                    byProductName[name] = target
                }
            }
        }
        /// The library targets one target depends on, in the project's order.
        func libraryDependencies(of target: NativeTarget) -> [NativeTarget] {
            let graph = target.graph
            let key = graph.projectPath + "\u{0}"
            var found: [NativeTarget] = []
            for dependency in graph.references(target.id, "dependencies") {
                if let id = graph.string(dependency, "target"), let named = byID[key + id] { found.append(named) }
            }
            for phase in graph.references(target.id, "buildPhases") where graph.isa(phase) == "PBXFrameworksBuildPhase"
            {
                for buildFile in graph.references(phase, "files") {
                    guard let reference = graph.string(buildFile, "fileRef") else { continue }
                    if let named = byProduct[key + reference] {
                        found.append(named)
                    } else if graph.string(reference, "sourceTree") == "BUILT_PRODUCTS_DIR"
                        || graph.isa(reference) == "PBXReferenceProxy",
                        let name = graph.string(reference, "path").map(ProjectPath.lastComponent),
                        let named = byProductName[name]
                    {
                        found.append(named)
                    }
                }
            }
            return found.filter { $0.productType.map(libraryProductTypes.contains) ?? false }
        }
        var ordered: [(target: ExtensionTarget.LinkedTarget, packages: [ExtensionTarget.Dependency])] = []
        var visited: Set<String> = [candidate.graph.projectPath + "\u{0}" + candidate.id]
        func visit(_ target: NativeTarget, depth: Int) {
            guard depth < 64, visited.insert(target.graph.projectPath + "\u{0}" + target.id).inserted else { return }
            let dependencies = libraryDependencies(of: target)
            for dependency in dependencies { visit(dependency, depth: depth + 1) }
            var missing: [String] = []
            var notes: [String] = []
            let files = compiledFiles(of: target, missing: &missing, notes: &notes)
            let module = target.settings.value("PRODUCT_MODULE_NAME") ?? target.name
            let library = ExtensionTarget.LinkedTarget(
                name: target.name, moduleName: module, swiftFiles: files.swift, objectiveCFiles: files.objectiveC,
                missingFiles: unique(missing).sorted(), dependsOn: dependencies.map(\.name), notes: unique(notes))
            ordered.append((library, linkedProducts(of: target).dependencies))
        }
        for dependency in libraryDependencies(of: candidate) { visit(dependency, depth: 0) }
        return ordered
    }

    /// The projects beside `graph` whose targets it may link: those the workspaces in its folder list, and the
    /// subprojects it references (`projectReferences`), read once each; those that cannot be read are left out.
    static func neighbours(of graph: ProjectGraph, known: [ProjectGraph]) -> [ProjectGraph] {
        var paths: [String] = []
        let folder = ProjectPath.parent(of: graph.projectPath)
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
        for name in names where name.hasSuffix(".xcworkspace") && !name.hasPrefix(".") {
            paths += ProjectLocator.workspaceProjects(folder + "/" + name)
        }
        for reference in graph.objects[graph.rootID]?["projectReferences"]?.array ?? [] {
            guard let fileRef = reference.dictionary?["ProjectRef"]?.string,
                case .disk(let path) = graph.location(of: fileRef), path.hasSuffix(".xcodeproj")
            else { continue }
            paths.append(path)
        }
        var graphs = known
        for path in paths where path != graph.projectPath && !graphs.contains(where: { $0.projectPath == path }) {
            if graphs.count >= 16 { break }
            if let loaded = try? ProjectGraph.load(path) { graphs.append(loaded) }
        }
        return graphs.filter { $0.projectPath != graph.projectPath }
    }

    private static func caseNote(_ named: String, _ found: String, root: String) -> String {
        "\(ProjectPath.relative(named, to: root)): found as \(ProjectPath.relative(found, to: root)) (the project names it in another case, which macOS ignores and Linux does not)"
    }

    /// Adds where a file reference or a version group (a Core Data model) is; a file only a build makes is missing.
    private static func place(
        _ reference: String, in graph: ProjectGraph, compiled: inout [String], missing: inout [String],
        notes: inout [String]
    ) {
        switch graph.location(of: reference) {
        case .disk(let path):
            compiled.append(path)
        case .elsewhere(let tree, let path):
            let kind = ProjectPath.fileExtension(path)
            guard kind == "swift" || cFamily.contains(kind) else { return }
            missing.append("$(\(tree))/\(path)")
            notes.append("\(path): in \(tree), so made by the build (not on disk here)")
        case .unresolved(let why):
            notes.append("file reference \(reference): no path (\(why))")
        }
    }

    /// False for a build file limited to other platforms (`platformFilter = maccatalyst`, `platformFilters = (macos)`).
    private static func builtForIOS(_ buildFile: String, in graph: ProjectGraph) -> Bool {
        var filters = graph.objects[buildFile]?["platformFilters"]?.strings ?? []
        if let single = graph.string(buildFile, "platformFilter") { filters.append(single) }
        return filters.isEmpty || filters.contains("ios")
    }

    /// The pods of the target's block in the Podfile beside the project, and the Podfile's development pods (by name,
    /// their folders absolute).
    private static func podfilePods(for candidate: NativeTarget, linksPods: Bool, notes: inout [String]) -> (
        pods: [String], development: [String: String]
    ) {
        let graph = candidate.graph
        let folders = unique([ProjectPath.parent(of: graph.projectPath), graph.sourceRoot])
        guard let file = folders.map({ $0 + "/Podfile" }).first(where: { FileNode.exists($0) }) else {
            if linksPods {
                notes.append(
                    "\(candidate.name) links CocoaPods, but there is no Podfile beside the project; its pods are unknown"
                )
            }
            return ([], [:])
        }
        switch BoundedFile.read(file, limit: Podfile.maxBytes) {
        case .success(let bytes):
            let podfile = Podfile(String(decoding: bytes, as: UTF8.self))
            guard let pods = podfile.pods(for: candidate.name) else {
                if linksPods {
                    notes.append("\(file): no target '\(candidate.name)' block, though the target links CocoaPods")
                }
                return ([], [:])
            }
            let folder = ProjectPath.parent(of: file)
            return (pods, podfile.developmentPods.mapValues { ProjectPath.join(folder, $0) })
        case .failure(let problem):
            notes.append("\(file): cannot be read (\(problem.message.lowercased())); the pods are unknown")
            return ([], [:])
        }
    }

    /// The development pods among `pods` (`pod 'ChatUI', :path => '../ChatUI'`), each after the development pods its
    /// podspec depends on, with the Swift files its `source_files` name.
    private static func developmentPods(
        _ pods: [String], folders: [String: String], notes: inout [String]
    ) -> [ExtensionTarget.LinkedTarget] {
        var ordered: [ExtensionTarget.LinkedTarget] = []
        var visited: Set<String> = []
        func root(_ pod: String) -> String { String(pod.split(separator: "/").first ?? Substring(pod)) }
        func visit(_ pod: String, depth: Int) {
            let name = root(pod)
            guard depth < 32, let folder = folders[name], visited.insert(name).inserted else { return }
            switch Podspec.find(pod: name, in: folder) {
            case .failure(let problem):
                notes.append("development pod \(name): \(problem.description)")
            case .success(let spec):
                let local = spec.dependencies.filter { folders[root($0)] != nil }
                for dependency in local { visit(dependency, depth: depth + 1) }
                let files = spec.files(in: folder)
                let swift = files.filter { ProjectPath.fileExtension($0) == "swift" }
                let objectiveC = files.filter { Self.cFamily.contains(ProjectPath.fileExtension($0)) }
                var podNotes: [String] = []
                if spec.sourcePatterns.isEmpty {
                    podNotes.append("development pod \(name): its podspec names no source_files richpush can read")
                }
                // CocoaPods makes the module name a C identifier of the pod's name unless module_name says.
                let module =
                    spec.moduleName
                    ?? String(spec.name.map { $0.isLetter || $0.isNumber || $0 == "_" ? $0 : "_" })
                ordered.append(
                    ExtensionTarget.LinkedTarget(
                        name: name, moduleName: module, swiftFiles: swift, objectiveCFiles: objectiveC,
                        missingFiles: [],
                        dependsOn: local.map(root), notes: podNotes, kind: .developmentPod(folder: folder)))
            }
        }
        for pod in pods { visit(pod, depth: 0) }
        return ordered
    }

    /// The pins of `Package.resolved` (the project's, else its workspace's) for the packages used.
    private static func resolvedPackages(graph: ProjectGraph, locations: [String]) -> [ExtensionTarget.ResolvedPackage]
    {
        guard !locations.isEmpty else { return [] }
        var files = [graph.projectPath + "/project.xcworkspace/xcshareddata/swiftpm/Package.resolved"]
        let folder = ProjectPath.parent(of: graph.projectPath)
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
        for name in names where name.hasSuffix(".xcworkspace") {
            files.append(folder + "/" + name + "/xcshareddata/swiftpm/Package.resolved")
        }
        let wanted = Set(locations.map(PackageResolved.identity))
        var result: [ExtensionTarget.ResolvedPackage] = []
        for file in files {
            for pin in PackageResolved.read(file)
            where wanted.contains(pin.identity.lowercased()) && !result.contains(where: { $0.identity == pin.identity })
            {
                result.append(pin)
            }
        }
        return result
    }

    private static func unique<Element: Hashable>(_ elements: [Element]) -> [Element] {
        var seen: Set<Element> = []
        return elements.filter { seen.insert($0).inserted }
    }
}

/// What a target links, gathered from its package products and its Frameworks phase.
private struct Linked {
    let graph: ProjectGraph
    var dependencies: [ExtensionTarget.Dependency] = []
    /// Repository URLs of remote packages, for `Package.resolved`.
    var packageLocations: [String] = []
    /// The CocoaPods aggregate (`Pods_X.framework`, `libPods-X.a`) is linked.
    var linksPods = false

    init(graph: ProjectGraph) { self.graph = graph }

    /// An `XCSwiftPackageProductDependency`: the product and the package it comes from.
    mutating func product(_ id: String) {
        guard let product = graph.string(id, "productName") else { return }
        if product.hasPrefix("plugin:") { return }
        guard let package = graph.string(id, "package") else {
            dependencies.append(.packageProduct(product))
            return
        }
        switch graph.isa(package) {
        case "XCRemoteSwiftPackageReference":
            guard let url = graph.string(package, "repositoryURL") else { return }
            packageLocations.append(url)
            dependencies.append(.package(repositoryName: PackageResolved.repositoryName(of: url), product: product))
        case "XCLocalSwiftPackageReference":
            // `relativePath` is relative to the folder holding the .xcodeproj (Xcode 15's local package reference).
            guard let path = graph.string(package, "relativePath") ?? graph.string(package, "path") else { return }
            let folder = ProjectPath.join(ProjectPath.parent(of: graph.projectPath), path)
            dependencies.append(.localPackage(path: folder, product: product))
        default:
            return
        }
    }

    /// A framework or library file: its name without the extension (and `lib` for libraries).
    mutating func file(_ id: String) {
        let path = graph.string(id, "path") ?? graph.string(id, "name") ?? ""
        var name = ProjectPath.lastComponent(path)
        let kind = ProjectPath.fileExtension(name)
        if !kind.isEmpty { name = String(name.dropLast(kind.count + 1)) }
        if ["a", "tbd", "dylib", "so"].contains(kind), name.hasPrefix("lib") { name = String(name.dropFirst(3)) }
        guard !name.isEmpty else { return }
        if name.hasPrefix("Pods_") || name.hasPrefix("Pods-") {
            linksPods = true
            return
        }
        dependencies.append(.framework(name))
    }
}
