// swift-tools-version:6.2
import PackageDescription

// The compatibility modules: Apple's framework APIs that a team's Notification Service Extension uses, named as
// Apple's, for Linux. A package of their own, beside richpush's: SwiftPM puts every module of a package in one
// search path, and richpush's dependencies ask `canImport(os)`, `canImport(CommonCrypto)` or
// `canImport(UserNotifications)` to pick Apple-only code paths (swift-argument-parser, swift-crypto's extras,
// xctest-dynamic-overlay, swift-custom-dump), which modules of these names in the same build made them take on
// Linux. Their only dependency, swift-crypto's Crypto, asks no such question.
let package = Package(
    name: "RichPushCompatibility",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "UserNotifications", targets: ["UserNotifications"]),
        .library(name: "CommonCrypto", targets: ["CommonCrypto"]),
        .library(name: "MobileCoreServices", targets: ["MobileCoreServices"]),
        .library(name: "UniformTypeIdentifiers", targets: ["UniformTypeIdentifiers"]),
        .library(name: "os", targets: ["os"]),
        .library(name: "OSLog", targets: ["OSLog"]),
        .library(name: "FirebaseMessaging", targets: ["FirebaseMessaging"]),
        // All of them and the process host in one shared library, which `--extension` links a team's extension
        // against (one copy of each type in the extension's process).
        .library(
            name: "RichPushExtensionSDK", type: .dynamic,
            targets: [
                "UserNotifications", "CommonCrypto", "MobileCoreServices", "UniformTypeIdentifiers", "os", "OSLog",
                "FirebaseMessaging", "RichPushVendorSupport", "RichPushExtensionHost",
            ]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"5.0.0"),
        // The table of types, the vendors' rules and the host protocol, which richpush reads too.
        .package(path: "../Shared"),
    ],
    targets: [
        .target(
            name: "UserNotifications",
            dependencies: [
                .product(name: "RichPushRules", package: "Shared"),
                .product(name: "RichPushHostProtocol", package: "Shared"),
            ]),
        .target(name: "CommonCrypto", dependencies: [.product(name: "Crypto", package: "swift-crypto")]),
        .target(name: "UniformTypeIdentifiers", dependencies: [.product(name: "RichPushRules", package: "Shared")]),
        .target(name: "MobileCoreServices", dependencies: ["UniformTypeIdentifiers"]),
        .target(name: "os"),
        .target(name: "OSLog", dependencies: ["os"]),
        // What every vendor module's image code does, by that vendor's rules (RichPushRules.Vendors).
        .target(
            name: "RichPushVendorSupport",
            dependencies: ["UserNotifications", .product(name: "RichPushRules", package: "Shared")]),
        .target(
            name: "FirebaseMessaging",
            dependencies: [
                "UserNotifications", "RichPushVendorSupport", .product(name: "RichPushRules", package: "Shared"),
            ]),
        // The other end of `--extension`: runs a team's extension class in its own process, one notification each.
        .target(
            name: "RichPushExtensionHost",
            dependencies: ["UserNotifications", .product(name: "RichPushHostProtocol", package: "Shared")],
            // Swift 5 mode, as the extension code it hosts: the C library's `stdout` is a global.
            swiftSettings: [.swiftLanguageMode(.v5)]),
        .testTarget(
            name: "CompatibilityModuleTests",
            dependencies: [
                "UserNotifications", "CommonCrypto", "MobileCoreServices", "UniformTypeIdentifiers", "os", "OSLog",
                "FirebaseMessaging", .product(name: "RichPushRules", package: "Shared"),
            ]),
    ]
)
