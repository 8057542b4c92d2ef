import RichPushFiles

/// A native target of a project, with what identifies an app extension: its product type and Info.plist.
struct NativeTarget: Sendable {
    let graph: ProjectGraph
    let id: String
    let name: String
    let productType: String?
    let settings: BuildSettings
    /// The Info.plist path the settings name (which may be missing).
    let infoPlistPath: String?
    let infoPlistExists: Bool
    let extensionPoint: String?
    let principalClass: String?
    /// Why the extension point is unknown, when it is.
    let pointProblem: String

    static let appExtensionType = "com.apple.product-type.app-extension"

    var isAppExtension: Bool { productType == Self.appExtensionType }
    var isServiceExtension: Bool { isAppExtension && extensionPoint == ExtensionTarget.serviceExtensionPoint }

    /// Names teams give a service extension (`NotificationService`, `MobileMessagingNotificationExtension`,
    /// `notification-extension`, `NSE`), and not a content extension (`NotificationContent`).
    var nameSuggestsServiceExtension: Bool {
        let lower = name.lowercased()
        guard !lower.contains("content") else { return false }
        return (lower.contains("notification") && (lower.contains("service") || lower.contains("extension")))
            || name.hasSuffix("NSE")
    }

    var productDescription: String {
        switch productType {
        case "com.apple.product-type.application": "an app"
        case "com.apple.product-type.framework": "a framework"
        case "com.apple.product-type.bundle.unit-test": "a unit test bundle"
        case "com.apple.product-type.bundle.ui-testing": "a UI test bundle"
        case let other?: "a target of type \(other)"
        case nil: "a target without a product type"
        }
    }

    /// The native targets of `graph`, in the project's order.
    static func all(in graph: ProjectGraph) -> [NativeTarget] {
        let listed = graph.references(graph.rootID, "targets")
        var seen: Set<String> = []
        return listed.compactMap { id in
            guard seen.insert(id).inserted, graph.isa(id) == "PBXNativeTarget" else { return nil }
            return NativeTarget(id: id, in: graph)
        }
    }

    init(id: String, in graph: ProjectGraph) {
        self.graph = graph
        self.id = id
        let name = graph.string(id, "name") ?? id
        self.name = name
        productType = graph.string(id, "productType")
        let settings = BuildSettings(target: id, name: name, in: graph)
        self.settings = settings
        var point: String?
        var principal: String?
        var problem = "its build settings name no Info.plist (INFOPLIST_FILE)"
        var plistPath: String?
        var exists = false
        if productType == Self.appExtensionType, let file = settings.value("INFOPLIST_FILE"), !file.isEmpty {
            var path = ProjectPath.join(graph.sourceRoot, file)
            if !FileNode.exists(path), let found = ProjectPath.matchingCase(path) { path = found }
            plistPath = path
            switch InfoPlistFile.read(path) {
            case .success(let info):
                exists = true
                point = info.extensionPointIdentifier.map(settings.expand)
                principal = info.principalClass
                problem = "\(path) has no NSExtension NSExtensionPointIdentifier"
            case .failure(let failure):
                exists = FileNode.following(path).map(\.isRegularFile) == .success(true)
                problem = "\(path): \(failure.message.lowercased())"
            }
        }
        // INFOPLIST_KEY_ settings are merged over the file by Xcode.
        if let key = settings.value("INFOPLIST_KEY_NSExtensionPointIdentifier"), !key.isEmpty { point = key }
        if let key = settings.values["INFOPLIST_KEY_NSExtensionPrincipalClass"], !key.isEmpty { principal = key }
        infoPlistPath = plistPath
        infoPlistExists = exists
        extensionPoint = point
        principalClass = principal
        pointProblem = problem
    }

    /// "the app extensions are: A (com.apple.widgetkit-extension), B (extension point unknown: …)".
    static func listing(_ extensions: [NativeTarget], all: [NativeTarget]) -> String {
        guard !extensions.isEmpty else {
            let names = all.map(\.name)
            return names.isEmpty
                ? "the project has no targets"
                : "it has no app extension targets (targets: \(names.joined(separator: ", ")))"
        }
        let described = extensions.map { candidate in
            "\(candidate.name) (\(candidate.extensionPoint ?? "extension point unknown: \(candidate.pointProblem)"))"
        }
        return "app extension targets: " + described.joined(separator: ", ")
    }
}
