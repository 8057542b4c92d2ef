import Foundation
import RichPushFiles

/// The Xcode projects a path names: an `.xcodeproj`, its `project.pbxproj`, an `.xcworkspace` (the projects it
/// lists), or a folder holding any of these, directly or one folder down (`ios/` of a React Native or Flutter app).
/// CocoaPods' own `Pods.xcodeproj` is never one of them.
enum ProjectLocator {
    /// Folders one level down that never hold the team's project.
    static let skippedFolders: Set<String> = ["Pods", "node_modules", "build", "DerivedData", "Carthage", "vendor"]

    /// The `.xcodeproj` folders, absolute, in a stable order.
    static func projects(at path: String) throws(ProjectProblem) -> [String] {
        let absolute = ProjectPath.absolute(path)
        let node: FileNode
        switch FileNode.following(absolute) {
        case .success(let found): node = found
        case .failure(let problem):
            if problem.code == ENOENT || problem.code == ENOTDIR {
                throw ProjectProblem(.noProject, file: path, "no such file or folder")
            }
            throw ProjectProblem(.unreadable, file: path, "cannot be read (\(problem.message.lowercased()))")
        }
        let name = ProjectPath.lastComponent(absolute)
        guard node.isDirectory else {
            if name == "project.pbxproj" { return [ProjectPath.parent(of: absolute)] }
            throw ProjectProblem(
                .noProject, file: path,
                "not an Xcode project (name a .xcodeproj folder, its project.pbxproj, a .xcworkspace, or a folder holding one)"
            )
        }
        if name.hasSuffix(".xcodeproj") { return [absolute] }
        if name.hasSuffix(".xcworkspace") {
            let listed = workspaceProjects(absolute)
            guard !listed.isEmpty else {
                throw ProjectProblem(.noProject, file: path, "the workspace lists no Xcode project of the team's")
            }
            return listed
        }
        let here = projects(in: absolute)
        if !here.isEmpty { return here }
        var below: [String] = []
        for folder in entries(absolute) where !skippedFolders.contains(folder) && !folder.hasPrefix(".") {
            let inner = absolute + "/" + folder
            guard FileNode.following(inner).map(\.isDirectory) == .success(true), !folder.hasSuffix(".xcodeproj")
            else { continue }
            below += projects(in: inner)
        }
        guard !below.isEmpty else {
            throw ProjectProblem(.noProject, file: path, "no Xcode project (.xcodeproj) in it or in its folders")
        }
        return below
    }

    /// The projects directly in `folder`, or else those its workspaces list.
    private static func projects(in folder: String) -> [String] {
        let names = entries(folder)
        let projects = names.filter { $0.hasSuffix(".xcodeproj") && $0 != "Pods.xcodeproj" && !$0.hasPrefix(".") }
        if !projects.isEmpty { return projects.map { folder + "/" + $0 } }
        var listed: [String] = []
        for workspace in names where workspace.hasSuffix(".xcworkspace") && !workspace.hasPrefix(".") {
            for project in workspaceProjects(folder + "/" + workspace) where !listed.contains(project) {
                listed.append(project)
            }
        }
        return listed
    }

    private static func entries(_ folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }

    /// The projects `contents.xcworkspacedata` lists (`group:`, `container:`, `absolute:` locations), that exist.
    static func workspaceProjects(_ workspace: String) -> [String] {
        guard case .success(let bytes) = BoundedFile.read(workspace + "/contents.xcworkspacedata", limit: 1 << 20)
        else { return [] }
        let text = String(decoding: bytes, as: UTF8.self)
        let folder = ProjectPath.parent(of: workspace)
        var result: [String] = []
        var rest = Substring(text)
        while let range = rest.range(of: "location") {
            rest = rest[range.upperBound...]
            guard let open = rest.firstIndex(of: "\"") else { break }
            let afterOpen = rest.index(after: open)
            guard let close = rest[afterOpen...].firstIndex(of: "\"") else { break }
            let location = String(rest[afterOpen..<close]).replacingOccurrences(of: "&amp;", with: "&")
            rest = rest[rest.index(after: close)...]
            guard let colon = location.firstIndex(of: ":") else { continue }
            let kind = location[..<colon]
            let value = String(location[location.index(after: colon)...])
            let path: String
            switch kind {
            case "group", "container": path = ProjectPath.join(folder, value)
            case "absolute": path = ProjectPath.normalize(value)
            default: continue
            }
            guard path.hasSuffix(".xcodeproj"), ProjectPath.lastComponent(path) != "Pods.xcodeproj",
                FileNode.exists(path + "/project.pbxproj"), !result.contains(path)
            else { continue }
            result.append(path)
        }
        return result
    }
}
