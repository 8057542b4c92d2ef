import Foundation
import RichPushFiles

/// A Notification Service Extension target of an Xcode project, as Xcode would build it: exactly the Swift files its
/// Sources phase and folder-synchronized groups compile (wherever they live: the extension's folder, the app's),
/// its Info.plist's principal class and extension point, its bridging header, and what it links (pods from the
/// Podfile, Swift packages, frameworks). Paths are absolute, in the user's spelling (links not resolved).
public struct ExtensionTarget: Sendable, Equatable {
    /// Something the target links: a CocoaPods pod (a subspec as written, `Firebase/Messaging`), a Swift package
    /// product (the package by its repository's last path component, `firebase-ios-sdk`, or a local package's
    /// folder name), a product of a package the project does not name (a local package of the workspace, as
    /// `KlaviyoSwiftExtension` in Klaviyo's samples), or a framework or library of the Frameworks phase
    /// (`UserNotifications`, `z` for `libz.tbd`).
    public enum Dependency: Sendable, Hashable, CustomStringConvertible {
        case pod(String)
        case package(repositoryName: String, product: String?)
        /// A product of a local Swift package (`XCLocalSwiftPackageReference`): the package's folder, absolute.
        case localPackage(path: String, product: String)
        case packageProduct(String)
        case framework(String)

        public var description: String {
            switch self {
            case .pod(let name): "pod \(name)"
            case .package(let repository, let product): "package \(repository)" + (product.map { " (\($0))" } ?? "")
            case .localPackage(let path, let product): "local package \(ProjectPath.lastComponent(path)) (\(product))"
            case .packageProduct(let product): "package product \(product)"
            case .framework(let name): "framework \(name)"
            }
        }
    }

    /// A Swift package as `Package.resolved` pins it.
    public struct ResolvedPackage: Sendable, Equatable {
        public var identity: String
        public var location: String
        public var version: String?
        public var revision: String?
        public var branch: String?
    }

    /// The extension point of a Notification Service Extension.
    public static let serviceExtensionPoint = "com.apple.usernotifications.service"

    public var name: String
    /// The `.xcodeproj` folder.
    public var projectPath: String
    /// The build configuration whose settings were read (`Debug` when the target has one).
    public var configuration: String
    /// The Swift files Xcode compiles into the target, that exist, sorted.
    public var swiftFiles: [String]
    /// The C, Objective-C and C++ files it compiles, that exist, sorted.
    public var objectiveCFiles: [String]
    /// The Info.plist (`INFOPLIST_FILE`), when it exists.
    public var infoPlistPath: String?
    /// `NSExtensionPrincipalClass` as declared (`$(PRODUCT_MODULE_NAME).NotificationService`: the caller strips the
    /// module), from the Info.plist or an `INFOPLIST_KEY_NSExtensionPrincipalClass` setting.
    public var principalClass: String?
    /// `NSExtensionPointIdentifier`; nil when neither the Info.plist nor a setting says (a target named with
    /// `--target` whose Info.plist is missing).
    public var extensionPointIdentifier: String?
    /// `PRODUCT_MODULE_NAME` (by default the target's name as a C identifier).
    public var productModuleName: String
    /// `SWIFT_OBJC_BRIDGING_HEADER`, resolved, when it exists.
    public var bridgingHeader: String?
    public var dependencies: [Dependency]
    /// A framework or library target of the same project that the extension links (a target dependency, or a product
    /// its Frameworks phase names), or a development pod of its Podfile, with what it compiles.
    public struct LinkedTarget: Sendable, Equatable {
        public var name: String
        /// `PRODUCT_MODULE_NAME`: the name the extension imports.
        public var moduleName: String
        public var swiftFiles: [String]
        public var objectiveCFiles: [String]
        public var missingFiles: [String]
        /// The names of the linked targets it depends on itself, which come before it in ``linkedTargets``.
        public var dependsOn: [String]
        public var notes: [String]
        /// A target of the project, or a CocoaPods development pod (`pod 'X', :path => '…'`) and its folder.
        public var kind: Kind = .target

        public enum Kind: Sendable, Equatable {
            case target
            case developmentPod(folder: String)
        }
    }

    /// The development pods and the framework and library targets the extension links, each after those it depends on.
    public var linkedTargets: [LinkedTarget] = []
    /// The pins of `Package.resolved` for the packages the target uses.
    public var resolvedPackages: [ResolvedPackage]
    /// Files the target names that are not on disk (or not regular files): sources, the Info.plist, the bridging header.
    public var missingFiles: [String]
    /// What the reader decided or could not follow, one sentence each (generated sources, unreadable xcconfig files,
    /// a target chosen by its name because its Info.plist is missing).
    public var notes: [String]

    /// The Notification Service Extension of the project at `path` (an `.xcodeproj`, its `project.pbxproj`, an
    /// `.xcworkspace` or a folder holding one): the app extension whose Info.plist has the extension point
    /// `com.apple.usernotifications.service`, or the target `targetName` names.
    public static func find(in path: String, targetName: String? = nil) throws(ProjectProblem) -> ExtensionTarget {
        let projectPaths = try ProjectLocator.projects(at: path)
        var graphs: [ProjectGraph] = []
        var failures: [ProjectProblem] = []
        for project in projectPaths {
            do {
                graphs.append(try ProjectGraph.load(project))
            } catch {
                failures.append(error)
            }
        }
        guard !graphs.isEmpty else { throw failures[0] }
        let label = projectPaths.count == 1 ? projectPaths[0] : path
        let targets = graphs.flatMap { graph in NativeTarget.all(in: graph) }
        let extensions = targets.filter(\.isAppExtension)
        let chosen: NativeTarget
        var notes: [String] = []
        if let targetName {
            guard
                let named = targets.first(where: { $0.name == targetName && $0.isServiceExtension })
                    ?? targets.first(where: { $0.name == targetName })
            else {
                throw ProjectProblem(
                    .noSuchTarget, file: label, targets: targets.map(\.name),
                    "no target named \(targetName); \(NativeTarget.listing(extensions, all: targets))")
            }
            guard named.isAppExtension else {
                throw ProjectProblem(
                    .notAServiceExtension, file: label, targets: extensions.map(\.name),
                    "\(targetName) is \(named.productDescription), not a Notification Service Extension; \(NativeTarget.listing(extensions, all: targets))"
                )
            }
            if let point = named.extensionPoint, point != serviceExtensionPoint {
                throw ProjectProblem(
                    .notAServiceExtension, file: label, targets: extensions.map(\.name),
                    "\(targetName) is an app extension for \(point), not a Notification Service Extension (\(serviceExtensionPoint)); \(NativeTarget.listing(extensions, all: targets))"
                )
            }
            if named.extensionPoint == nil {
                notes.append("\(targetName): its extension point is unknown (\(named.pointProblem)); read as named")
            }
            chosen = named
        } else {
            let services = extensions.filter(\.isServiceExtension)
            if services.count > 1 {
                let names = services.map {
                    graphs.count > 1 ? "\($0.name) (\(ProjectPath.lastComponent($0.graph.projectPath)))" : $0.name
                }
                throw ProjectProblem(
                    .severalServiceExtensions, file: label, targets: services.map(\.name),
                    "\(services.count) Notification Service Extension targets: \(names.joined(separator: ", ")); choose one with --target NAME"
                )
            }
            if let only = services.first {
                chosen = only
            } else {
                // An extension whose Info.plist is missing (not committed, generated) and whose name says what it is.
                let guessed = extensions.filter { $0.extensionPoint == nil && $0.nameSuggestsServiceExtension }
                guard guessed.count == 1, let guess = guessed.first else {
                    var message =
                        "no Notification Service Extension target (an app extension whose Info.plist has NSExtensionPointIdentifier \(serviceExtensionPoint)); \(NativeTarget.listing(extensions, all: targets))"
                    if extensions.contains(where: { $0.extensionPoint == nil }) {
                        message += "; if one of them is the service extension, name it with --target NAME"
                    }
                    if !failures.isEmpty {
                        message += "; not read: " + failures.map(\.description).joined(separator: "; ")
                    }
                    throw ProjectProblem(.noServiceExtension, file: label, targets: extensions.map(\.name), message)
                }
                notes.append(
                    "\(guess.name): taken for the Notification Service Extension by its name; its extension point is unknown (\(guess.pointProblem))"
                )
                chosen = guess
            }
        }
        notes += failures.map { "not read: \($0.description)" }
        var target = TargetReader.read(chosen, others: graphs)
        target.notes = notes + target.notes
        return target
    }
}
