// swift-tools-version:6.2
import PackageDescription

// What richpush and the compatibility package (Compatibility/) must say alike, in one place that both depend on by
// path: the table of types (identifiers, extensions, MIME types, what iOS attaches), each vendor's extension rules
// (read by `--sdk VENDOR` in richpush and by the vendor modules a team's extension imports), and the protocol
// between richpush and an extension's process, and the image codecs (CImageCodecs: what a valid image is, for richpush's
// decoder and UIImage alike). No package dependencies (the codecs link the system's libpng, libjpeg-turbo, giflib and
// libdeflate), so it builds in seconds in either package.
let package = Package(
    name: "RichPushShared",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "RichPushRules", targets: ["RichPushRules"]),
        .library(name: "RichPushHostProtocol", targets: ["RichPushHostProtocol"]),
        .library(name: "CImageCodecs", targets: ["CImageCodecs"]),
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
        // What a valid PNG, JPEG or GIF is, for richpush's ImageDecoder and the compatibility package's UIImage alike:
        // the C shim over libpng, libjpeg-turbo and giflib, and the quick PNG check with libdeflate; and UIImage's
        // encoding (PNG, JPEG) and drawing.
        .target(
            name: "CImageCodecs",
            linkerSettings: [
                .linkedLibrary("png"), .linkedLibrary("jpeg"), .linkedLibrary("gif"), .linkedLibrary("deflate"),
                .linkedLibrary("m"),
            ]
        ),
        .testTarget(name: "RichPushRulesTests", dependencies: ["RichPushRules", "RichPushHostProtocol"]),
    ]
)
