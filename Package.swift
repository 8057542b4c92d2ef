// swift-tools-version:6.2
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "RichPushEmulator",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "richpush", targets: ["richpush"]),
        .library(name: "RichPushCore", targets: ["RichPushCore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-nio-http2.git", from: "1.46.0"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.4"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/pointfreeco/swift-clocks.git", from: "1.1.1"),
        .package(url: "https://github.com/pointfreeco/swift-snapshot-testing.git", from: "1.19.7"),
        // The table of types, the vendors' rules, the extension host's protocol and the image codecs, shared with
        // Compatibility/.
        .package(path: "Shared"),
    ],
    targets: [
        .target(
            name: "RichPushCore",
            dependencies: [
                .product(name: "Logging", package: "swift-log"),
                .product(name: "RichPushRules", package: "Shared"),
                .product(name: "RichPushHostProtocol", package: "Shared"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(name: "CFileInfo"),
        // What a path is (stat, lstat, fstat through CFileInfo): one type for every module that looks at files.
        .target(
            name: "RichPushFiles",
            dependencies: ["CFileInfo"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "RichPushLibrary",
            dependencies: ["RichPushCore", "RichPushFiles", "CFileInfo"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "RichPushNetwork",
            dependencies: [
                "RichPushCore",
                "RichPushFiles",
                "CFileInfo",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOTLS", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        // A team's own extension: built from its sources, run in a process per notification, its network proxied.
        .target(
            name: "RichPushCustomExtension",
            dependencies: [
                "RichPushCodecs",
                "RichPushCore",
                "RichPushFiles",
                "RichPushNetwork",
                "RichPushXcodeProject",
                "CProcessSpawn",
                .product(name: "RichPushHostProtocol", package: "Shared"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        // A team's Xcode project as Xcode reads it (project.pbxproj, workspaces, synchronized folders, build settings,
        // the Podfile, Package.resolved): its Notification Service Extension target. Hostile input, as a payload is
        // (Fuzz/XcodeProject).
        .target(
            name: "RichPushXcodeProject",
            dependencies: ["RichPushFiles"],
            swiftSettings: swiftSettings
        ),
        // fork and exec with the parent-death signal, pidfds and close_range: what posix_spawn cannot do.
        .target(name: "CProcessSpawn"),
        .systemLibrary(
            name: "CLibDeflate",
            providers: [.apt(["libdeflate-dev"])]
        ),
        .target(
            name: "RichPushServe",
            dependencies: [
                "RichPushCore",
                "RichPushFiles",
                "RichPushNetwork",
                "CLibDeflate",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdHTTP2", package: "hummingbird"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOTLS", package: "swift-nio"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "NIOHPACK", package: "swift-nio-http2"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "RichPushReplay",
            dependencies: ["RichPushCore", "RichPushLibrary"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "RichPushCodecs",
            dependencies: [
                "RichPushCore", "RichPushFiles", "CFFmpegShim", .product(name: "CImageCodecs", package: "Shared"),
            ],
            swiftSettings: swiftSettings
        ),
        // FFmpeg (Debian's libavformat, libavcodec, libavutil, libswscale): audio and video attachments read by their
        // real container and codecs, and a video's poster frame.
        .systemLibrary(
            name: "CFFmpeg",
            pkgConfig: "libavformat",
            providers: [.apt(["libavformat-dev", "libavcodec-dev", "libavutil-dev", "libswscale-dev"])]
        ),
        .target(
            name: "CFFmpegShim",
            dependencies: ["CFFmpeg"],
            linkerSettings: [
                .linkedLibrary("avformat"), .linkedLibrary("avcodec"), .linkedLibrary("swscale"),
                .linkedLibrary("avutil"),
            ]
        ),
        .systemLibrary(
            name: "CNCurses",
            providers: [.apt(["libncurses-dev"])]
        ),
        .target(
            name: "CNCursesShim",
            dependencies: ["CNCurses"],
            linkerSettings: [.linkedLibrary("ncursesw"), .linkedLibrary("tinfo")]
        ),
        .systemLibrary(
            name: "CChafa",
            pkgConfig: "chafa",
            providers: [.apt(["libchafa-dev"])]
        ),
        .target(name: "CChafaShim", dependencies: ["CChafa"]),
        .target(
            name: "RichPushGraphics",
            dependencies: ["RichPushCore", "CChafaShim", "CNCursesShim"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "RichPushTUI",
            dependencies: [
                "RichPushCore",
                "RichPushFiles",
                "RichPushGraphics",
                "RichPushLibrary",
                "CNCursesShim",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // scripts/bench's reference for figure 1: async-http-client alone, as curl --parallel.
        .executableTarget(
            name: "bench-client",
            dependencies: [
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            path: "Benchmarks/bench-client",
            swiftSettings: swiftSettings
        ),
        // scripts/bench-serve's second reference: the HTTP/2 server stack alone (Hummingbird, NIO, NIOSSL).
        .executableTarget(
            name: "bench-h2-server",
            dependencies: [
                "RichPushNetwork",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdHTTP2", package: "hummingbird"),
            ],
            path: "Benchmarks/bench-h2-server",
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "richpush",
            dependencies: [
                "CFileInfo",
                "RichPushCore",
                "RichPushCustomExtension",
                "RichPushFiles",
                "RichPushLibrary",
                "RichPushNetwork",
                "RichPushReplay",
                "RichPushServe",
                "RichPushCodecs",
                "RichPushGraphics",
                "RichPushTUI",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        // What several test targets share: the richpush binary and a runner for it, pictures built pixel by pixel.
        .target(
            name: "RichPushTestSupport",
            dependencies: ["RichPushCore"],
            path: "Tests/RichPushTestSupport",
            swiftSettings: swiftSettings
        ),
        // A push server on loopback, wired to the real pipeline, and provider tokens: for the serve tests and the
        // CLI tests of serve and push.
        .target(
            name: "RichPushServeTestSupport",
            dependencies: [
                "RichPushCore", "RichPushNetwork", "RichPushServe", "RichPushTestSupport",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            path: "Tests/RichPushServeTestSupport",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "RichPushCoreTests",
            dependencies: [
                "RichPushCore",
                .product(name: "Clocks", package: "swift-clocks"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "RichPushNetworkTests",
            dependencies: [
                "RichPushCore",
                "RichPushNetwork",
                "RichPushTestSupport",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "X509", package: "swift-certificates"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "RichPushServeTests",
            dependencies: [
                "RichPushCore",
                "RichPushFiles",
                "RichPushNetwork",
                "RichPushServe",
                "RichPushServeTestSupport",
                "RichPushTestSupport",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOTLS", package: "swift-nio"),
                .product(name: "NIOHPACK", package: "swift-nio-http2"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "CompatibilityTests",
            // Type-checks extension code against the compatibility package's modules (Compatibility/), with swiftc; and
            // compares UIImage's verdict on images with richpush's decoder's.
            dependencies: [
                "RichPushCodecs", "RichPushCore", "RichPushCustomExtension", "RichPushNetwork", "RichPushTestSupport",
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "CustomExtensionTests",
            dependencies: ["RichPushCustomExtension", "RichPushTestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "RichPushXcodeProjectTests",
            dependencies: ["RichPushFiles", "RichPushTestSupport", "RichPushXcodeProject"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "RichPushFilesTests",
            dependencies: ["RichPushFiles", "RichPushTestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "RichPushLibraryTests",
            dependencies: ["RichPushCore", "RichPushLibrary", "RichPushTestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "RichPushReplayTests",
            dependencies: [
                "RichPushCore", "RichPushLibrary", "RichPushReplay",
            ],
            swiftSettings: swiftSettings
        ),
        // richpush itself, run as a child process: the commands' options, output, exit status and files, as a
        // user sees them (the TUI is driven in tmux by Tests/EndToEnd/tui-e2e.sh).
        .testTarget(
            name: "RichPushCLITests",
            dependencies: [
                "RichPushCore", "RichPushFiles", "RichPushServe", "RichPushServeTestSupport", "RichPushTestSupport",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "RichPushGraphicsTests",
            dependencies: ["RichPushCore", "RichPushGraphics", "RichPushTestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "RichPushCodecsTests",
            dependencies: [
                .product(name: "CImageCodecs", package: "Shared"),
                "RichPushCore",
                "RichPushCodecs",
                "RichPushNetwork",
                "RichPushTestSupport",
                .product(name: "Logging", package: "swift-log"),
            ],
            // A JPEG of too many scans and the program that writes it, read by path.
            exclude: ["Fixtures"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "RichPushTUITests",
            dependencies: [
                "RichPushCore",
                "RichPushGraphics",
                "RichPushTUI",
                "RichPushTestSupport",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "SnapshotTesting", package: "swift-snapshot-testing"),
            ],
            exclude: ["__Snapshots__"],
            swiftSettings: swiftSettings
        ),
    ]
)
