import Foundation
import RichPushFiles

/// The files Xcode 16's folder-synchronized groups (`PBXFileSystemSynchronizedRootGroup`) compile into a target.
///
/// A target lists the folders it owns in `fileSystemSynchronizedGroups`: every file under such a folder is a member
/// of the target, except the paths a `PBXFileSystemSynchronizedBuildFileExceptionSet` of that folder names for that
/// target (`membershipExceptions`, relative to the folder; Xcode puts `Info.plist` there). A folder the target does
/// not own gives it exactly the paths an exception set of that folder names for it: that is how Xcode records "also
/// in the extension" for an app file. A `PBXFileSystemSynchronizedGroupBuildPhaseMembershipExceptionSet` for the
/// target's Sources phase turns compilation of the paths it names the other way (a Swift file out, a file of another
/// type in), and `explicitFileTypes` gives a path another type. Written as Xcode 16 writes them, e.g.:
///
///     ABC /* Exceptions for "App" folder in "NotificationService" target */ = {
///         isa = PBXFileSystemSynchronizedBuildFileExceptionSet;
///         membershipExceptions = ( Shared/AppGroup.swift, );
///         target = DEF /* NotificationService */;
///     };
///
/// (read in tuist/XcodeProj `Fixtures/SynchronizedRootGroups`, commit 8ec2c0a, and in the projects of
/// GetStream/stream-chat-swift a4e569b and CCIP-App/CCIP-iOS e427258.)
struct SynchronizedFolders {
    /// Files visited under all folders of a target, and folders deep: far beyond a real project, short of a hang.
    static let maxEntries = 100_000
    static let maxDepth = 64

    /// Folders whose contents are one item to Xcode (a bundle, an asset catalog), never searched for sources.
    static let opaqueFolders: Set<String> = [
        "xcassets", "bundle", "framework", "xcframework", "app", "appex", "lproj", "xcdatamodeld", "xcdatamodel",
        "mlpackage", "scnassets", "xcstickers", "playground", "xcodeproj", "xcworkspace", "docc", "rcproject",
    ]

    /// Types compiled by the Sources phase unless an exception says otherwise.
    static let compiledExtensions: Set<String> = [
        "swift", "m", "mm", "c", "cc", "cpp", "cxx", "xcdatamodeld", "xcdatamodel", "intentdefinition", "mlmodel",
        "mlpackage", "metal", "xcmappingmodel",
    ]

    /// Compiled files, absolute.
    private(set) var files: [String] = []
    /// Paths an exception names for the target that are not on disk.
    private(set) var missing: [String] = []
    private(set) var notes: [String] = []
    private var visited = 0

    /// The files `target` compiles from folder-synchronized groups of `graph`.
    init(target: String, sourcesPhase: String?, in graph: ProjectGraph) {
        let owned = Set(graph.references(target, "fileSystemSynchronizedGroups"))
        for group in graph.ids(isa: "PBXFileSystemSynchronizedRootGroup") {
            let exceptions = graph.references(group, "exceptions")
            let forTarget = exceptions.filter {
                graph.isa($0) == "PBXFileSystemSynchronizedBuildFileExceptionSet"
                    && graph.string($0, "target") == target
            }
            guard owned.contains(group) || !forTarget.isEmpty else { continue }
            guard case .disk(let folder) = graph.location(of: group) else {
                notes.append("the folder of group \(graph.string(group, "path") ?? group) is not on disk")
                continue
            }
            let named = Set(forTarget.flatMap { graph.references($0, "membershipExceptions") }.map(Self.clean))
            let toggled = Set(
                exceptions.filter {
                    graph.isa($0) == "PBXFileSystemSynchronizedGroupBuildPhaseMembershipExceptionSet"
                        && sourcesPhase != nil && graph.string($0, "buildPhase") == sourcesPhase
                }
                .flatMap { graph.references($0, "membershipExceptions") }.map(Self.clean))
            let types = graph.objects[group]?["explicitFileTypes"]?.dictionary ?? [:]
            let explicitFolders = Set(graph.references(group, "explicitFolders").map(Self.clean))
            func compiled(_ relative: String) -> Bool {
                let byType: Bool
                if let type = types[relative]?.string {
                    byType = type.hasPrefix("sourcecode.") && !type.hasPrefix("sourcecode.c.h")
                } else {
                    byType = Self.compiledExtensions.contains(ProjectPath.fileExtension(relative))
                }
                return byType != toggled.contains(relative)
            }
            if owned.contains(group) {
                guard FileNode.following(folder).map(\.isDirectory) == .success(true) else {
                    missing.append(folder)
                    continue
                }
                var identities: Set<FileNode.Identity> = []
                for relative in walk(folder, relative: "", depth: 0, opaque: explicitFolders, seen: &identities)
                where !Self.isExcluded(relative, by: named) && compiled(relative) {
                    files.append(ProjectPath.join(folder, relative))
                }
            } else {
                for relative in named.sorted() where !relative.hasPrefix("/") {
                    let path = ProjectPath.join(folder, relative)
                    switch FileNode.following(path) {
                    case .success(let node) where node.isDirectory:
                        var identities: Set<FileNode.Identity> = []
                        for inner in walk(
                            path, relative: relative, depth: 0, opaque: explicitFolders, seen: &identities)
                        where compiled(inner) {
                            files.append(ProjectPath.join(folder, inner))
                        }
                    case .success:
                        if compiled(relative) { files.append(path) }
                    case .failure:
                        if compiled(relative) { missing.append(path) }
                    }
                }
            }
        }
    }

    /// An exception names a file or a folder above it.
    private static func isExcluded(_ relative: String, by named: Set<String>) -> Bool {
        if named.contains(relative) { return true }
        var path = Substring(relative)
        while let slash = path.lastIndex(of: "/") {
            path = path[..<slash]
            if named.contains(String(path)) { return true }
        }
        return false
    }

    /// An exception's path as compared: `./` and trailing slashes dropped.
    private static func clean(_ path: String) -> String {
        var text = Substring(path)
        while text.hasPrefix("./") { text = text.dropFirst(2) }
        while text.hasSuffix("/") { text = text.dropLast() }
        return String(text)
    }

    /// The files under `folder`, as paths relative to the group's folder, hidden ones skipped; folders reached twice
    /// through links are walked once, links that lead nowhere are noted.
    private mutating func walk(
        _ folder: String, relative: String, depth: Int, opaque: Set<String>, seen: inout Set<FileNode.Identity>
    ) -> [String] {
        guard depth < Self.maxDepth else {
            notes.append("\(folder): folders nested more than \(Self.maxDepth) deep are not searched")
            return []
        }
        if case .success(let node) = FileNode.following(folder) {
            guard seen.insert(node.identity).inserted else { return [] }
        }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        } catch {
            notes.append("\(folder): cannot be read (\(error.localizedDescription))")
            return []
        }
        var result: [String] = []
        for name in names where !name.hasPrefix(".") {
            visited += 1
            guard visited <= Self.maxEntries else {
                if visited == Self.maxEntries + 1 {
                    notes.append("more than \(Self.maxEntries) files in folder groups; the rest are not searched")
                }
                return result
            }
            let path = folder + "/" + name
            let inner = relative.isEmpty ? name : relative + "/" + name
            switch FileNode.following(path) {
            case .success(let node) where node.isDirectory:
                if opaque.contains(inner) || Self.opaqueFolders.contains(ProjectPath.fileExtension(name)) {
                    result.append(inner)
                } else {
                    result += walk(path, relative: inner, depth: depth + 1, opaque: opaque, seen: &seen)
                }
            case .success:
                result.append(inner)
            case .failure(let problem):
                notes.append("\(path): \(problem.message.lowercased())")
            }
        }
        return result
    }
}
