// swift-tools-version:6.2
import PackageDescription

// What richpush and the compatibility package (Compatibility/) must say alike, in one place that both depend on by
// path: the table of types (identifiers, extensions, MIME types, what iOS attaches), each vendor's extension rules
// (read by `--sdk VENDOR` in richpush and by the vendor modules a team's extension imports), and the protocol
// between richpush and an extension's process. No dependencies, so it builds in seconds in either package.
let package = Package(
    name: "RichPushShared",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "RichPushRules", targets: ["RichPushRules"]),
        .library(name: "RichPushHostProtocol", targets: ["RichPushHostProtocol"]),
    ],
    targets: [
        .target(
            name: "RichPushRules",
            swiftSettings: [.enableUpcomingFeature("ExistentialAny"), .enableUpcomingFeature("MemberImportVisibility")]
        ),
        .target(
            name: "RichPushHostProtocol",
            dependencies: ["RichPushRules"],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny"), .enableUpcomingFeature("MemberImportVisibility")]
        ),
        .testTarget(name: "RichPushRulesTests", dependencies: ["RichPushRules", "RichPushHostProtocol"]),
    ]
)
