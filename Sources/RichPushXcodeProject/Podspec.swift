import Foundation
import RichPushFiles

/// A development pod's podspec, read without running Ruby: its name, module name, the files it compiles and the pods
/// it depends on. The attributes are CocoaPods' (https://guides.cocoapods.org/syntax/podspec.html): `name`,
/// `module_name`, `source_files` and `exclude_files` (file patterns: `**` any folders, `*` any part of a name,
/// `{swift,m}` alternatives), and `dependency`; subspecs' files belong to the pod too. A `.podspec.json` is read as
/// JSON. What a Ruby expression computes (`Dir.glob`, string interpolation) is not followed.
struct Podspec: Sendable, Equatable {
    static let maxBytes = 1 << 20
    /// At most this many files are looked at under a pod's folder.
    static let maxFiles = 8192

    var name: String
    var moduleName: String?
    var sourcePatterns: [String] = []
    var excludePatterns: [String] = []
    var dependencies: [String] = []

    /// The podspec of pod `pod` in `folder`: `NAME.podspec`, `NAME.podspec.json`, or the folder's only podspec.
    static func find(pod: String, in folder: String) -> Result<Podspec, ProjectProblem> {
        var candidates = [folder + "/\(pod).podspec", folder + "/\(pod).podspec.json"]
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
        let specs = names.filter { $0.hasSuffix(".podspec") || $0.hasSuffix(".podspec.json") }
        if specs.count == 1 { candidates.append(folder + "/" + specs[0]) }
        guard let file = candidates.first(where: { FileNode.exists($0) }) else {
            return .failure(
                ProjectProblem(.noProject, file: folder, "no \(pod).podspec in it, so the development pod is unknown"))
        }
        switch BoundedFile.read(file, limit: maxBytes) {
        case .success(let bytes):
            let text = String(decoding: bytes, as: UTF8.self)
            return .success(file.hasSuffix(".json") ? json(text, pod: pod) : ruby(text, pod: pod))
        case .failure(let problem):
            return .failure(
                ProjectProblem(.unreadable, file: file, "cannot be read (\(problem.message.lowercased()))"))
        }
    }

    /// A Ruby podspec: `s.name = 'X'`, `s.source_files = 'A/**/*.swift', 'B/*.swift'` or `= ['A', 'B']` (over several
    /// lines), `s.dependency 'Y', '~> 1.0'`, in the spec and its subspecs.
    static func ruby(_ text: String, pod: String) -> Podspec {
        var spec = Podspec(name: pod)
        var pending: WritableKeyPath<Podspec, [String]>?
        for raw in text.split(whereSeparator: { $0 == "\n" || $0 == "\r" }) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("#") { continue }
            if let key = pending {
                spec[keyPath: key] += quotedStrings(Substring(line))
                if line.contains("]") { pending = nil }
                continue
            }
            guard let dot = line.firstIndex(of: ".") else { continue }
            let rest = line[line.index(after: dot)...]
            let attribute = String(rest.prefix { $0.isLetter || $0 == "_" })
            let value = rest.dropFirst(attribute.count)
            switch attribute {
            case "name" where value.trimmingCharacters(in: .whitespaces).hasPrefix("="):
                if let name = quotedStrings(value).first, spec.name == pod || spec.name.isEmpty { spec.name = name }
            case "module_name":
                spec.moduleName = quotedStrings(value).first ?? spec.moduleName
            case "source_files", "exclude_files":
                let key: WritableKeyPath<Podspec, [String]> =
                    attribute == "source_files" ? \.sourcePatterns : \.excludePatterns
                spec[keyPath: key] += quotedStrings(value)
                if value.contains("[") && !value.contains("]") { pending = key }
            case "dependency":
                if let name = quotedStrings(value).first { spec.dependencies.append(name) }
            default:
                continue
            }
        }
        return spec
    }

    /// A `.podspec.json` (what `pod ipc spec` writes): the same attributes, subspecs included.
    static func json(_ text: String, pod: String) -> Podspec {
        var spec = Podspec(name: pod)
        guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
            return spec
        }
        func strings(_ value: Any?) -> [String] {
            if let one = value as? String { return [one] }
            return value as? [String] ?? []
        }
        func add(_ node: [String: Any], depth: Int) {
            guard depth < 16 else { return }
            spec.sourcePatterns += strings(node["source_files"])
            spec.excludePatterns += strings(node["exclude_files"])
            spec.dependencies += ((node["dependencies"] as? [String: Any]) ?? [:]).keys.sorted()
            for subspec in node["subspecs"] as? [[String: Any]] ?? [] { add(subspec, depth: depth + 1) }
        }
        spec.name = object["name"] as? String ?? pod
        spec.moduleName = object["module_name"] as? String
        add(object, depth: 0)
        return spec
    }

    /// The strings between quotes in a piece of Ruby.
    static func quotedStrings(_ text: Substring) -> [String] {
        var found: [String] = []
        var current: String?
        var quote: Character = "'"
        for character in text {
            if var open = current {
                if character == quote {
                    found.append(open)
                    current = nil
                } else {
                    open.append(character)
                    current = open
                }
            } else if character == "'" || character == "\"" {
                quote = character
                current = ""
            } else if character == "#" {
                break
            }
        }
        return found
    }

    /// The files under `folder` that the patterns name and the exclusions do not, sorted.
    func files(in folder: String) -> [String] {
        let include = sourcePatterns.compactMap(Self.expression)
        let exclude = excludePatterns.compactMap(Self.expression)
        guard !include.isEmpty, let walker = FileManager.default.enumerator(atPath: folder) else { return [] }
        var found: [String] = []
        var seen = 0
        while let relative = walker.nextObject() as? String, seen < Self.maxFiles {
            seen += 1
            if ProjectPath.lastComponent(relative).hasPrefix(".") {
                walker.skipDescendants()
                continue
            }
            func matches(_ expression: NSRegularExpression) -> Bool {
                expression.firstMatch(in: relative, range: NSRange(relative.startIndex..., in: relative)) != nil
            }
            if include.contains(where: matches), !exclude.contains(where: matches) {
                found.append(folder + "/" + relative)
            }
        }
        return found.sorted()
    }

    /// A CocoaPods file pattern as a regular expression over paths relative to the pod's folder: `**/` any folders
    /// (or none), `*` any part of one name, `?` one character, `{a,b}` either; a folder names every file under it.
    static func expression(_ pattern: String) -> NSRegularExpression? {
        var regex = "^"
        var characters = Array(pattern.hasPrefix("./") ? String(pattern.dropFirst(2)) : pattern)
        if characters.last == "/" { characters.removeLast() }
        var index = 0
        var inBraces = false
        while index < characters.count {
            let character = characters[index]
            switch character {
            case "*":
                if index + 1 < characters.count, characters[index + 1] == "*" {
                    if index + 2 < characters.count, characters[index + 2] == "/" {
                        regex += "(?:.*/)?"
                        index += 2
                    } else {
                        regex += ".*"
                        index += 1
                    }
                } else {
                    regex += "[^/]*"
                }
            case "?": regex += "[^/]"
            case "{":
                inBraces = true
                regex += "(?:"
            case "}" where inBraces:
                inBraces = false
                regex += ")"
            case "," where inBraces: regex += "|"
            default: regex += NSRegularExpression.escapedPattern(for: String(character))
            }
            index += 1
        }
        // A pattern without a wildcard may name a folder: everything under it.
        regex += pattern.contains("*") ? "$" : "(?:/.*)?$"
        return try? NSRegularExpression(pattern: regex)
    }
}
