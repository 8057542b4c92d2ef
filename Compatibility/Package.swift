// swift-tools-version:6.2
import Foundation
import PackageDescription

// The compatibility modules: the APIs a team's Notification Service Extension uses, named as Apple's frameworks
// (Sources/<Framework>) and as the push vendors' SDK modules (Sources/Vendors/<Module>), for Linux. A package of their
// own, beside richpush's: SwiftPM puts every module of a package in one search path, and richpush's dependencies ask
// `canImport(os)`, `canImport(CommonCrypto)` or `canImport(UserNotifications)` to pick Apple-only code paths
// (swift-argument-parser, swift-crypto's extras, xctest-dynamic-overlay, swift-custom-dump), which modules of these
// names in the same build made them take on Linux. Their only outside dependency, swift-crypto's Crypto, asks no such
// question (on Linux it builds its own API, never `import CryptoKit`).

/// Apple's frameworks, as far as an extension may use them on iOS.
let appleFrameworks = [
    "UserNotifications", "CommonCrypto", "MobileCoreServices", "UniformTypeIdentifiers", "os", "OSLog", "UIKit",
    "Intents", "CryptoKit", "Security", "Compression", "WidgetKit", "RichPushCombine",
]

/// Apple's system libraries that are Clang modules on iOS too (`import SQLite3`): system library targets, which no
/// product may hold; a team's extension finds their maps beside its build (ExtensionBuilder) and links the library.
let appleSystemLibraries = ["SQLite3"]

/// The push vendors' SDK modules, each the public API an extension calls over that vendor's shared rules
/// (Shared/Sources/RichPushRules/Vendors): one folder of Sources/Vendors per name a team's code imports, and a target
/// per folder. SwiftPM keeps a manifest's result until the manifest's text changes: after adding or removing a folder,
/// build once with `--manifest-cache none` (or edit this file).
let vendorModules = try! FileManager.default.contentsOfDirectory(atPath: Context.packageDirectory + "/Sources/Vendors")
    .filter { !$0.hasPrefix(".") }.sorted()

/// The vendor modules that import other modules of this package, besides UserNotifications and RichPushVendorSupport.
let vendorDependencies: [String: [Target.Dependency]] = [
    "Firebase": ["FirebaseCore", "FirebaseMessaging"], "OneSignal": ["OneSignalExtension"],
    "AirshipNotificationServiceExtension": ["AirshipServiceExtension"],
    "AirshipExtensions": ["AirshipServiceExtension"],
    "AirshipAppExtensions": ["AirshipServiceExtension"], "CioMessagingPush": ["CioInternalCommon"],
    "CioMessagingPushAPN": ["CioMessagingPush"], "CioMessagingPushFCM": ["CioMessagingPush"],
    "Pushwoosh": ["PushwooshFramework"], "PushwooshNotificationUI": ["CryptoKit"],
    "MobileMessagingNotificationExtension": ["MobileMessaging"],
]

/// A vendor module: its API, the vendor's image code from the shared rules (RichPushVendorSupport).
func vendor(_ name: String) -> Target {
    .target(
        name: name,
        dependencies: [
            "UserNotifications", "RichPushVendorSupport", .product(name: "RichPushRules", package: "Shared"),
        ] + (vendorDependencies[name] ?? []),
        path: "Sources/Vendors/\(name)")
}

let package = Package(
    name: "RichPushCompatibility",
    platforms: [.macOS(.v15)],
    products: [
        // Every module and the process host in one shared library, which `--extension` links a team's extension
        // against (one copy of each type in the extension's process).
        .library(
            name: "RichPushExtensionSDK", type: .dynamic,
            targets: appleFrameworks + vendorModules + [
                "RichPushVendorSupport", "RichPushFoundationOverlay", "RichPushExtensionHost", "CURLSocketSources",
            ])
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"5.0.0"),
        // Combine's API on Linux, re-exported under Apple's name by the Combine module.
        .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
        // The table of types, the vendors' rules, the host protocol and the image codecs, which richpush uses too.
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
        // UIImage decodes, encodes and draws with richpush's own image codecs (Shared's CImageCodecs: libpng,
        // libjpeg-turbo, giflib), so both agree on what a valid image is.
        .target(
            name: "UIKit",
            dependencies: ["UserNotifications", .product(name: "CImageCodecs", package: "Shared")]),
        .target(name: "Intents", dependencies: ["UserNotifications", "UIKit"]),
        .target(name: "CryptoKit", dependencies: [.product(name: "Crypto", package: "swift-crypto")]),
        .target(
            name: "Security", dependencies: ["UserNotifications", .product(name: "Crypto", package: "swift-crypto")]),
        // The SQLite C API over the system's libsqlite3 (a team's extension sees its map through ExtensionBuilder).
        .systemLibrary(name: "SQLite3", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        // compression_encode_buffer and compression_stream_* over the system's zlib and liblzma (CCompression),
        // which Compression takes as C function pointers rather than importing.
        .target(name: "Compression", dependencies: ["CCompression"]),
        .target(name: "CCompression", linkerSettings: [.linkedLibrary("z"), .linkedLibrary("lzma")]),
        .target(name: "WidgetKit", dependencies: ["UserNotifications"]),
        // Combine: OpenCombine's Publisher, Subject and operators, DispatchQueue and RunLoop as schedulers and
        // URLSession.dataTaskPublisher, which a team's extension imports as `Combine` (ExtensionBuilder passes
        // `-module-alias Combine=RichPushCombine`). Not named Combine here: OpenCombine asks `canImport(Combine)` to
        // leave those out on Apple's platforms, and a module of that name in this build made a rebuilt
        // OpenCombineDispatch drop DispatchQueue's Scheduler conformance (and fail to link).
        .target(
            name: "RichPushCombine",
            dependencies: [
                .product(name: "OpenCombine", package: "OpenCombine"),
                .product(name: "OpenCombineDispatch", package: "OpenCombine"),
                .product(name: "OpenCombineFoundation", package: "OpenCombine"),
            ]),
        // What every vendor module's image code does, by that vendor's rules (RichPushRules.Vendors).
        .target(
            name: "RichPushVendorSupport",
            dependencies: [
                "UserNotifications", .product(name: "RichPushRules", package: "Shared"),
                .product(name: "RichPushHostProtocol", package: "Shared"),
            ]),
    ] + vendorModules.map(vendor) + [
        // What iOS's Foundation has and swift-corelibs-foundation lacks, which every file of an extension sees.
        .target(name: "RichPushFoundationOverlay"),
        // URLSession on Linux waits for an answer in a busy loop (a write source Foundation's libcurl glue never
        // cancels): the SDK library wraps libcurl's socket callback to drop it (curl_socket_sources.c).
        .target(name: "CURLSocketSources", linkerSettings: [.linkedLibrary("dl")]),
        // The other end of `--extension`: runs a team's extension class in its own process.
        .target(
            name: "RichPushExtensionHost",
            dependencies: ["UserNotifications", .product(name: "RichPushHostProtocol", package: "Shared")],
            // Swift 5 mode, as the extension code it hosts: the C library's `stdout` is a global.
            swiftSettings: [.swiftLanguageMode(.v5)]),
        .testTarget(
            name: "CompatibilityModuleTests",
            dependencies: (appleFrameworks + appleSystemLibraries).map { Target.Dependency(stringLiteral: $0) } + [
                "FirebaseMessaging", .product(name: "RichPushRules", package: "Shared"),
            ]),
        // The vendor modules against the fixture-free parts of their behaviour (a vendor's own test target per
        // vendor is fine too: name it <Module>Tests).
        .testTarget(
            name: "VendorModuleTests",
            dependencies: vendorModules.map { Target.Dependency(stringLiteral: $0) } + [
                "RichPushVendorSupport", .product(name: "RichPushRules", package: "Shared"),
            ]),
    ]
)
