import Foundation
import RichPushFiles

/// A target's build settings in one configuration, as Xcode layers them: the project's `.xcconfig` and settings,
/// then the target's `.xcconfig` and settings, each layer's `$(inherited)` standing for the layers below; and the
/// settings Xcode defines itself (`SRCROOT`, `TARGET_NAME`, `PRODUCT_MODULE_NAME`). Values are expanded on reading
/// (`$(SRCROOT)/$(TARGET_NAME)/Info.plist`), with the operators projects use (`:c99extidentifier`, `:lower`).
struct BuildSettings: Sendable {
    /// The configuration read: `Debug` when the target has it (what Xcode's Run builds), else its default.
    let configuration: String
    private(set) var values: [String: String]
    /// What a reader should know: xcconfig files that could not be read.
    private(set) var notes: [String] = []

    /// How deep `$(A)` may lead to `$(B)` before expansion stops, and how long a value may grow.
    static let maxExpansionDepth = 16
    static let maxValueLength = 64 * 1024
    /// How many references one expansion resolves in all, beyond which the rest expand to nothing: a setting that
    /// names another twice, which names a third twice, … is 2^16 references 16 deep, and wider ones far more, though
    /// each expands to nothing (real settings resolve a few dozen).
    static let maxReferences = 4096
    /// `#include`s followed in xcconfig files, in all.
    static let maxConfigFiles = 32

    init(configuration: String, values: [String: String]) {
        self.configuration = configuration
        self.values = values
    }

    /// The settings of `targetID` in `graph`, in the configuration Xcode's Run would build.
    init(target targetID: String, name: String, in graph: ProjectGraph) {
        let targetList = graph.string(targetID, "buildConfigurationList")
        let projectList = graph.string(graph.rootID, "buildConfigurationList")
        let names = targetList.map { graph.references($0, "buildConfigurations") } ?? []
        let configurationNames = names.compactMap { graph.string($0, "name") }
        let chosen =
            configurationNames.contains("Debug")
            ? "Debug"
            : targetList.flatMap { graph.string($0, "defaultConfigurationName") }
                .flatMap { configurationNames.contains($0) ? $0 : nil }
                ?? configurationNames.first ?? "Debug"
        configuration = chosen
        values = [
            "SRCROOT": graph.sourceRoot, "PROJECT_DIR": graph.sourceRoot, "SOURCE_ROOT": graph.sourceRoot,
            "PROJECT_FILE_PATH": graph.projectPath, "PROJECT_NAME": graph.name, "TARGET_NAME": name,
            "CONFIGURATION": chosen, "PLATFORM_NAME": "iphoneos", "EFFECTIVE_PLATFORM_NAME": "-iphoneos",
            "SDK_NAME": "iphoneos", "PRODUCT_NAME": "$(TARGET_NAME)",
            "PRODUCT_MODULE_NAME": "$(PRODUCT_NAME:c99extidentifier)", "PODS_ROOT": "$(SRCROOT)/Pods",
        ]
        var budget = Self.maxConfigFiles
        for list in [projectList, targetList] {
            guard let list else { continue }
            let configuration = graph.references(list, "buildConfigurations").first {
                graph.string($0, "name") == chosen
            }
            guard let configuration else { continue }
            if let base = Self.baseConfiguration(configuration, in: graph) {
                apply(configFile: base, depth: 0, budget: &budget)
            }
            if let settings = graph.objects[configuration]?["buildSettings"]?.dictionary {
                apply(
                    settings.compactMapValues { value in
                        value.string ?? (value.array.map { $0.compactMap(\.string).joined(separator: " ") })
                    })
            }
        }
    }

    /// A setting, expanded; nil when no layer sets it.
    func value(_ key: String) -> String? {
        guard let raw = values[key] else { return nil }
        return expand(raw)
    }

    /// `$(NAME)`, `${NAME}` and `$NAME` replaced by their values (unset ones by nothing, as Xcode does).
    func expand(_ text: String) -> String {
        var expander = Expander(values: values)
        return expander.expand(text, depth: 0)
    }

    // MARK: Layers

    /// Sets each key of a layer, its `$(inherited)` replaced by the value below; a conditional key
    /// (`KEY[sdk=iphoneos*]`) applies when its conditions hold for an iPhone build of this configuration.
    private mutating func apply(_ layer: [String: String]) {
        var plain: [(String, String)] = []
        var conditional: [(String, String)] = []
        for (key, value) in layer {
            if let bracket = key.firstIndex(of: "[") {
                guard conditionsHold(key[bracket...]) else { continue }
                conditional.append((String(key[..<bracket]), value))
            } else {
                plain.append((key, value))
            }
        }
        for (key, value) in plain.sorted(by: { $0.0 < $1.0 }) + conditional.sorted(by: { $0.0 < $1.0 }) {
            set(key, value)
        }
    }

    private mutating func set(_ key: String, _ value: String) {
        let below = values[key] ?? ""
        var resolved = value
        for spelling in ["$(inherited)", "${inherited}", "$inherited"] where resolved.contains(spelling) {
            resolved = resolved.replacingOccurrences(of: spelling, with: below)
        }
        values[key] = String(resolved.prefix(Self.maxValueLength))
    }

    /// `[sdk=iphoneos*][arch=*]`: every condition must name an iPhone SDK, any architecture, or this configuration.
    private func conditionsHold(_ conditions: Substring) -> Bool {
        for condition in conditions.split(separator: "]") {
            let text = condition.drop { $0 == "[" }
            let pair = text.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2 else { return false }
            let (name, pattern) = (pair[0], pair[1])
            switch name {
            case "sdk": if !(pattern == "*" || pattern.hasPrefix("iphoneos") || pattern == "iphone*") { return false }
            case "arch": if !(pattern == "*" || pattern == "arm64") { return false }
            case "config": if pattern != configuration && pattern != "*" { return false }
            default: return false
            }
        }
        return true
    }

    /// The xcconfig file a configuration is based on: a file reference, or (Xcode 16) a path in a folder group.
    private static func baseConfiguration(_ configuration: String, in graph: ProjectGraph) -> String? {
        if let reference = graph.string(configuration, "baseConfigurationReference") {
            if case .disk(let path) = graph.location(of: reference) { return path }
            return nil
        }
        if let anchor = graph.string(configuration, "baseConfigurationReferenceAnchor"),
            let relative = graph.string(configuration, "baseConfigurationReferenceRelativePath"),
            case .disk(let folder) = graph.location(of: anchor)
        {
            return ProjectPath.join(folder, relative)
        }
        return nil
    }

    /// Applies an xcconfig file: `KEY = value` lines, `//` comments, `#include "other.xcconfig"` (and `#include?`,
    /// which may be missing). A missing file under `Pods/` is what `pod install` makes, and is not noted.
    private mutating func apply(configFile path: String, depth: Int, budget: inout Int) {
        guard depth < 8, budget > 0 else { return }
        budget -= 1
        let bytes: [UInt8]
        switch BoundedFile.read(path, limit: 1 << 20) {
        case .success(let read): bytes = read
        case .failure(let problem):
            if !path.contains("/Pods/") {
                notes.append(
                    "\(path): the xcconfig file cannot be read (\(problem.message.lowercased())); settings from it are unknown"
                )
            }
            return
        }
        let folder = ProjectPath.parent(of: path)
        var layer: [String: String] = [:]
        for rawLine in String(decoding: bytes, as: UTF8.self).split(whereSeparator: { $0 == "\n" || $0 == "\r" }) {
            var line = Substring(rawLine)
            if let comment = line.range(of: "//") { line = line[..<comment.lowerBound] }
            let text = line.trimmingCharacters(in: .whitespaces)
            if text.hasPrefix("#include") {
                // Settings so far come first, then the included file's, then the rest of this file.
                apply(layer)
                layer = [:]
                let optional = text.hasPrefix("#include?")
                guard let open = text.firstIndex(of: "\""), let close = text.lastIndex(of: "\""), open < close else {
                    continue
                }
                let included = String(text[text.index(after: open)..<close])
                let target = ProjectPath.join(folder, expand(included))
                if optional, !FileNode.exists(target) { continue }
                apply(configFile: target, depth: depth + 1, budget: &budget)
                continue
            }
            guard let equals = text.firstIndex(of: "=") else { continue }
            let key = text[..<equals].trimmingCharacters(in: .whitespaces)
            var value = text[text.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            if value.hasSuffix(";") { value.removeLast() }
            guard !key.isEmpty, !key.contains(" ") else { continue }
            layer[key] = value
        }
        apply(layer)
    }
}

/// Expands build setting references, bounded in depth and length.
private struct Expander {
    let values: [String: String]
    /// The references resolved so far (at most ``BuildSettings/maxReferences``).
    private var references = 0

    init(values: [String: String]) {
        self.values = values
    }

    mutating func expand(_ text: String, depth: Int) -> String {
        guard text.contains("$") else { return text }
        // Settings that lead to each other expand to nothing, as an unset one does.
        guard depth < BuildSettings.maxExpansionDepth else { return "" }
        var result = ""
        var index = text.startIndex
        while index < text.endIndex {
            guard result.utf8.count < BuildSettings.maxValueLength else { break }
            let character = text[index]
            guard character == "$" else {
                result.append(character)
                index = text.index(after: index)
                continue
            }
            let next = text.index(after: index)
            guard next < text.endIndex else {
                result.append(character)
                break
            }
            let opener = text[next]
            if opener == "(" || opener == "{" {
                let closer: Character = opener == "(" ? ")" : "}"
                // The matching closer, counting nested references: `$(FOO_$(BAR))`.
                var level = 0
                var end: String.Index?
                var scan = next
                while scan < text.endIndex {
                    if text[scan] == opener { level += 1 }
                    if text[scan] == closer {
                        level -= 1
                        if level == 0 {
                            end = scan
                            break
                        }
                    }
                    scan = text.index(after: scan)
                }
                guard let end else {
                    result.append(contentsOf: text[index...])
                    break
                }
                let inner = expand(String(text[text.index(after: next)..<end]), depth: depth + 1)
                result.append(resolve(inner, depth: depth))
                index = text.index(after: end)
            } else if opener.isLetter || opener == "_" {
                var end = next
                while end < text.endIndex, text[end].isLetter || text[end].isNumber || text[end] == "_" {
                    end = text.index(after: end)
                }
                result.append(resolve(String(text[next..<end]), depth: depth))
                index = end
            } else {
                result.append(character)
                index = next
            }
        }
        return String(result.prefix(BuildSettings.maxValueLength))
    }

    /// `NAME` or `NAME:operator`'s value.
    private mutating func resolve(_ reference: String, depth: Int) -> String {
        references += 1
        guard references <= BuildSettings.maxReferences else { return "" }
        let parts = reference.split(separator: ":", maxSplits: 1)
        guard let name = parts.first.map(String.init) else { return "" }
        var value = values[name].map { expand($0, depth: depth + 1) } ?? ""
        if parts.count == 2 {
            for operation in parts[1].split(separator: ",") {
                value = apply(String(operation), to: value)
            }
        }
        return value
    }

    private func apply(_ operation: String, to value: String) -> String {
        if operation.hasPrefix("default=") {
            return value.isEmpty ? String(operation.dropFirst("default=".count)) : value
        }
        switch operation {
        case "c99extidentifier", "identifier":
            var identifier = String(value.map { $0.isLetter || $0.isNumber || $0 == "_" ? $0 : "_" })
            if let first = identifier.first, first.isNumber { identifier = "_" + identifier }
            return identifier
        case "rfc1034identifier":
            return String(value.map { ($0.isASCII && ($0.isLetter || $0.isNumber)) || $0 == "." ? $0 : "-" })
        case "lower": return value.lowercased()
        case "upper": return value.uppercased()
        case "file": return ProjectPath.lastComponent(value)
        case "dir": return ProjectPath.parent(of: value)
        case "base":
            let file = ProjectPath.lastComponent(value)
            return file.lastIndex(of: ".").map { String(file[..<$0]) } ?? file
        case "standardizepath": return ProjectPath.normalize(value)
        default: return value
        }
    }
}
