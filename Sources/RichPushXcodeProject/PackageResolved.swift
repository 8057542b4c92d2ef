import Foundation

/// The Swift packages a project resolved, from `Package.resolved`: version 1 (`object.pins[].package`,
/// `repositoryURL`), and versions 2 and 3 (`pins[].identity`, `location`), as Xcode writes it in
/// `X.xcodeproj/project.xcworkspace/xcshareddata/swiftpm/` or a workspace's `xcshareddata/swiftpm/`.
enum PackageResolved {
    static let maxBytes = 4 << 20

    /// The pins of the file at `path`; none when it is absent or not one of the three versions.
    static func read(_ path: String) -> [ExtensionTarget.ResolvedPackage] {
        guard case .success(let bytes) = BoundedFile.read(path, limit: maxBytes) else { return [] }
        let data = Data(bytes)
        if let current = try? JSONDecoder().decode(Current.self, from: data), let pins = current.pins {
            return pins.compactMap { pin in
                guard let identity = pin.identity, let location = pin.location else { return nil }
                return ExtensionTarget.ResolvedPackage(
                    identity: identity, location: location, version: pin.state?.version,
                    revision: pin.state?.revision, branch: pin.state?.branch)
            }
        }
        if let first = try? JSONDecoder().decode(First.self, from: data), let pins = first.object?.pins {
            return pins.compactMap { pin in
                guard let location = pin.repositoryURL else { return nil }
                return ExtensionTarget.ResolvedPackage(
                    identity: identity(of: location), location: location, version: pin.state?.version,
                    revision: pin.state?.revision, branch: pin.state?.branch)
            }
        }
        return []
    }

    /// SwiftPM's identity of a repository: its last path component without `.git`, lowercased.
    static func identity(of location: String) -> String {
        repositoryName(of: location).lowercased()
    }

    /// The last path component of a repository URL or path, without `.git` (`firebase-ios-sdk`).
    static func repositoryName(of location: String) -> String {
        var name = Substring(location)
        while name.hasSuffix("/") { name = name.dropLast() }
        if let slash = name.lastIndex(where: { $0 == "/" || $0 == ":" }) { name = name[name.index(after: slash)...] }
        if name.lowercased().hasSuffix(".git") { name = name.dropLast(4) }
        return String(name)
    }

    private struct State: Decodable {
        var version: String?
        var revision: String?
        var branch: String?
    }

    private struct Current: Decodable {
        struct Pin: Decodable {
            var identity: String?
            var location: String?
            var state: State?
        }
        var pins: [Pin]?
    }

    private struct First: Decodable {
        struct Pin: Decodable {
            var package: String?
            var repositoryURL: String?
            var state: State?
        }
        struct Object: Decodable { var pins: [Pin]? }
        var object: Object?
    }
}
