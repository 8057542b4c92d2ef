import Foundation
import RichPushFiles

/// Paths as the project reader spells them: absolute, with `.` and `..` folded lexically and symbolic links kept,
/// so the files it gives are the paths the team's project names (not where links lead).
enum ProjectPath {
    /// `path` made absolute against the current folder and normalised.
    static func absolute(_ path: String) -> String {
        if path.hasPrefix("/") { return normalize(path) }
        return join(FileManager.default.currentDirectoryPath, path)
    }

    /// `relative` under `base`, normalised; an absolute `relative` stands alone.
    static func join(_ base: String, _ relative: String) -> String {
        if relative.hasPrefix("/") { return normalize(relative) }
        if relative.isEmpty { return normalize(base) }
        return normalize(base + "/" + relative)
    }

    /// `.` removed, `..` folded into its parent (never above the root), repeated slashes merged.
    static func normalize(_ path: String) -> String {
        let absolute = path.hasPrefix("/")
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == ".." {
                if let last = parts.last, last != ".." {
                    parts.removeLast()
                } else if !absolute {
                    parts.append(part)
                }
                continue
            }
            parts.append(part)
        }
        let joined = parts.joined(separator: "/")
        return absolute ? "/" + joined : (joined.isEmpty ? "." : joined)
    }

    static func parent(of path: String) -> String {
        normalize(path + "/..")
    }

    static func lastComponent(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    /// The extension of the last component, lowercased, without the dot ("swift"), or "" for none.
    static func fileExtension(_ path: String) -> String {
        let name = lastComponent(path)
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        return name[name.index(after: dot)...].lowercased()
    }

    /// `path` relative to `base` when inside it, else `path` itself (for messages).
    static func relative(_ path: String, to base: String) -> String {
        let prefix = base.hasSuffix("/") ? base : base + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }

    /// `path` as it is on disk when only the case of its names differs (`jamiNotificationExtension-Bridging-Header.h`
    /// for `JamiNotificationExtension-Bridging-Header.h`): Xcode projects are made on macOS, whose file systems
    /// ignore case by default, so a project can name a file in another case than the disk's. Nil when a name has no
    /// match, or more than one (`a.swift` and `A.swift` both there).
    static func matchingCase(_ path: String) -> String? {
        guard path.hasPrefix("/") else { return nil }
        var current = ""
        for name in path.split(separator: "/") {
            let exact = current + "/" + name
            if FileNode.exists(exact) {
                current = exact
                continue
            }
            let folder = current.isEmpty ? "/" : current
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            let matches = names.filter { $0.lowercased() == name.lowercased() }
            guard matches.count == 1 else { return nil }
            current += "/" + matches[0]
        }
        return current == path ? nil : current
    }
}
