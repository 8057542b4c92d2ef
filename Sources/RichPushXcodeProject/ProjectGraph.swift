import Foundation
import RichPushFiles

/// The objects of one `project.pbxproj`, by id, and where their files are on disk: a group's path is relative to
/// its parent group (`<group>`), to the project's folder (`SOURCE_ROOT`), absolute (`<absolute>`), or in a place only
/// a build makes (`BUILT_PRODUCTS_DIR`, `SDKROOT`), which is never on disk here.
struct ProjectGraph: Sendable {
    /// Real projects are under 2 MB; a project of a large monorepo may reach tens.
    static let maxBytes = 64 << 20
    /// How many groups deep a file may be (real projects: under 15).
    static let maxGroupDepth = 256

    typealias Object = [String: PropertyListValue]

    /// The `.xcodeproj` folder, absolute.
    let projectPath: String
    /// `project.pbxproj` inside it.
    let projectFile: String
    /// The folder paths are relative to: the project's folder and the project's `projectDirPath` (`$(SRCROOT)`).
    let sourceRoot: String
    let objects: [String: Object]
    let rootID: String
    /// The group each file or group is a child of, found from the main group (a child listed twice keeps its first
    /// parent; a group that contains itself is visited once).
    let parents: [String: String]

    /// Reads and parses the project in `projectPath` (an `.xcodeproj` folder, absolute).
    static func load(_ projectPath: String) throws(ProjectProblem) -> ProjectGraph {
        let file = projectPath + "/project.pbxproj"
        let bytes: [UInt8]
        switch BoundedFile.read(file, limit: maxBytes) {
        case .success(let read): bytes = read
        case .failure(let problem):
            if problem.code == ENOENT {
                throw ProjectProblem(
                    .noProject, file: projectPath,
                    "no project.pbxproj in it, so not an Xcode project (one XcodeGen or Tuist generates? generate it first, or name the extension's folder)"
                )
            }
            throw ProjectProblem(.unreadable, file: file, "cannot be read (\(problem.message.lowercased()))")
        }
        let root: PropertyListValue
        switch PropertyListValue.read(bytes) {
        case .success(let value): root = value
        case .failure(let problem):
            throw ProjectProblem(.malformed, file: file, "not a project file Xcode can open (\(problem.message))")
        }
        guard let table = root.dictionary, let objectTable = table["objects"]?.dictionary else {
            throw ProjectProblem(.malformed, file: file, "has no `objects` dictionary, so is not an Xcode project")
        }
        var objects: [String: Object] = [:]
        objects.reserveCapacity(objectTable.count)
        for (id, value) in objectTable {
            if let object = value.dictionary { objects[id] = object }
        }
        guard let rootID = table["rootObject"]?.string, objects[rootID]?["isa"]?.string == "PBXProject" else {
            throw ProjectProblem(
                .malformed, file: file, "its `rootObject` is not a PBXProject, so it is not an Xcode project")
        }
        let folder = ProjectPath.parent(of: projectPath)
        let directory = objects[rootID]?["projectDirPath"]?.string ?? ""
        let sourceRoot = ProjectPath.join(folder, directory)
        return ProjectGraph(
            projectPath: projectPath, projectFile: file, sourceRoot: sourceRoot, objects: objects, rootID: rootID,
            parents: Self.parents(objects, mainGroup: objects[rootID]?["mainGroup"]?.string))
    }

    init(
        projectPath: String, projectFile: String, sourceRoot: String, objects: [String: Object], rootID: String,
        parents: [String: String]
    ) {
        self.projectPath = projectPath
        self.projectFile = projectFile
        self.sourceRoot = sourceRoot
        self.objects = objects
        self.rootID = rootID
        self.parents = parents
    }

    /// The project's name: its folder's without `.xcodeproj`.
    var name: String {
        let last = ProjectPath.lastComponent(projectPath)
        return last.hasSuffix(".xcodeproj") ? String(last.dropLast(".xcodeproj".count)) : last
    }

    var root: Object { objects[rootID] ?? [:] }

    func isa(_ id: String) -> String? { objects[id]?["isa"]?.string }

    func string(_ id: String, _ key: String) -> String? { objects[id]?[key]?.string }

    /// The ids an object lists under `key` (`children`, `files`, `buildPhases`).
    func references(_ id: String, _ key: String) -> [String] { objects[id]?[key]?.strings ?? [] }

    /// The objects of one class, in a stable order.
    func ids(isa wanted: String) -> [String] {
        objects.compactMap { id, object in object["isa"]?.string == wanted ? id : nil }.sorted()
    }

    /// Where a file reference or group is.
    enum Location: Sendable, Equatable {
        /// An absolute path on disk (which may not exist).
        case disk(String)
        /// In a folder only a build or an SDK has: the source tree and the path in it.
        case elsewhere(tree: String, path: String)
        /// No place can be given (a cycle of groups).
        case unresolved(String)
    }

    /// The location of a file reference or group: its path joined to its parents' up to a source tree.
    func location(of id: String) -> Location {
        var components: [String] = []
        var current = id
        var seen: Set<String> = []
        while true {
            guard seen.insert(current).inserted, seen.count <= Self.maxGroupDepth else {
                return .unresolved("its groups contain each other")
            }
            guard let object = objects[current] else { return .unresolved("group \(current) is not in the project") }
            let isGroup = object["isa"]?.string.map(Self.groupClasses.contains) ?? false
            // A file without a path is named by its name (old projects); a group without one adds no folder.
            if let path = object["path"]?.string ?? (isGroup ? nil : object["name"]?.string), !path.isEmpty {
                components.insert(path, at: 0)
                if path.hasPrefix("/") { return .disk(ProjectPath.normalize(components.joined(separator: "/"))) }
            }
            let tree = object["sourceTree"]?.string ?? "<group>"
            switch tree {
            case "<group>":
                if let parent = parents[current] {
                    current = parent
                    continue
                }
                return .disk(ProjectPath.join(sourceRoot, components.joined(separator: "/")))
            case "SOURCE_ROOT", "SRCROOT", "PROJECT_DIR":
                return .disk(ProjectPath.join(sourceRoot, components.joined(separator: "/")))
            case "<absolute>":
                return .disk(ProjectPath.normalize("/" + components.joined(separator: "/")))
            default:
                return .elsewhere(tree: tree, path: components.joined(separator: "/"))
            }
        }
    }

    /// Classes whose `children` are files or groups.
    static let groupClasses: Set<String> = ["PBXGroup", "PBXVariantGroup", "XCVersionGroup"]

    /// Each child's group, walking from the main group; a cycle or a child listed twice is walked once.
    private static func parents(_ objects: [String: Object], mainGroup: String?) -> [String: String] {
        guard let mainGroup else { return [:] }
        var parents: [String: String] = [:]
        var seen: Set<String> = [mainGroup]
        var pending = [mainGroup]
        while let group = pending.popLast() {
            guard let object = objects[group], let isa = object["isa"]?.string, groupClasses.contains(isa) else {
                continue
            }
            for child in object["children"]?.strings ?? [] where seen.insert(child).inserted {
                parents[child] = group
                pending.append(child)
            }
        }
        return parents
    }
}
