import Foundation
import RichPushTestSupport
import Testing

@testable import RichPushCustomExtension

/// What an extension links from its own repository (examples/projects/Courier: the framework target CourierKit and
/// the local package MessageFormat, which depends on the local package Emoji), built with the real compiler before
/// the extension, from the project's `.xcodeproj`.
@Suite("A team's extension with the framework targets and local packages of its repository", .serialized)
struct LinkedLibrariesTests {
    static let project = repositoryRootPath + "/examples/projects/Courier"

    func builder(_ cache: TemporaryFolder) -> ExtensionBuilder {
        ExtensionBuilder(cacheFolder: cache.path + "/extensions")
    }

    /// A copy of an example project (the Courier project unless named), to break.
    func copy(_ project: String = LinkedLibrariesTests.project) throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        let copy = Process()
        copy.executableURL = URL(fileURLWithPath: "/bin/cp")
        copy.arguments = ["-R", project + "/.", folder.path]
        try copy.run()
        copy.waitUntilExit()
        #expect(copy.terminationStatus == 0)
        return folder
    }

    @Test("the project's framework target and its local packages are read, each after what it depends on")
    func order() throws {
        let input = try ExtensionInput.named(Self.project)
        #expect(input.swiftFiles == [Self.project + "/CourierNotificationService/NotificationService.swift"])
        #expect(input.libraries.map(\.name) == ["CourierKit"])
        #expect(
            input.libraries.first?.swiftFiles == [
                Self.project + "/CourierKit/Sender.swift", Self.project + "/CourierKit/ThreadNames.swift",
            ])
        #expect(
            input.localProducts == [
                LocalPackages.Product(folders: [Self.project + "/Packages/MessageFormat"], product: "MessageFormat")
            ])
        // A local package is built, never "a third-party library richpush does not provide".
        #expect(!input.notes.contains { $0.contains("third-party") }, "\(input.notes)")
    }

    @Test(
        "from its .xcodeproj: the packages' targets, then the framework target, then the extension; then from the cache"
    )
    func builds() async throws {
        let cache = try TemporaryFolder()
        let built = try await builder(cache).build(try ExtensionInput.named(Self.project + "/Courier.xcodeproj"))
        #expect(!built.cached)
        #expect(built.principalClass == "NotificationService")
        // MessageFormat after the two it imports; the test target is not built.
        #expect(built.libraries.map(\.name) == ["MessageCore", "Emoji", "MessageFormat", "CourierKit"])
        #expect(built.libraries.map(\.origin).contains("target Emoji of package Emoji"))
        #expect(FileManager.default.isExecutableFile(atPath: built.executable))

        let again = try await builder(cache).build(try ExtensionInput.named(Self.project))
        #expect(again.cached)
        #expect(again.executable == built.executable)
    }

    @Test("the cache key covers the libraries: a changed package source rebuilds an unchanged extension")
    func cacheKeyCoversLibraries() async throws {
        let project = try copy()
        let cache = try TemporaryFolder()
        let first = try await builder(cache).build(try ExtensionInput.named(project.path))
        let truncation = project.path + "/Packages/MessageFormat/Sources/MessageCore/Truncation.swift"
        let text = try String(contentsOfFile: truncation, encoding: .utf8)
        try text.replacingOccurrences(of: "\"…\"", with: "\"...\"").write(
            toFile: truncation, atomically: false, encoding: .utf8)
        let second = try await builder(cache).build(try ExtensionInput.named(project.path))
        #expect(!second.cached)
        #expect(second.executable != first.executable)
    }

    @Test("a local package's target that does not compile is named with its own first error, before the extension")
    func packageError() async throws {
        let project = try copy()
        let cache = try TemporaryFolder()
        let file = project.path + "/Packages/MessageFormat/Sources/MessageCore/Truncation.swift"
        try "public func truncated(_ text: String, to limit: Int) -> String { text.prefix(limit) + ellipsis }\n"
            .write(toFile: file, atomically: false, encoding: .utf8)
        let failure = try await #require(throws: ExtensionBuilder.Failure.self) {
            try await builder(cache).build(try ExtensionInput.named(project.path))
        }
        #expect(
            failure.description.contains(
                "target MessageCore of package MessageFormat, which the extension links, does not build"),
            "\(failure.description)")
        #expect(failure.description.contains("Truncation.swift:1:"), "\(failure.description)")
        #expect(failure.description.contains("cannot find 'ellipsis' in scope"), "\(failure.description)")
        #expect(failure.diagnostics.contains(file), "\(failure.diagnostics)")
        // The extension itself was not tried: its file is named nowhere.
        #expect(!failure.diagnostics.contains("NotificationService.swift"), "\(failure.diagnostics)")
    }

    @Test("a framework target that does not compile is named as the framework target")
    func frameworkError() async throws {
        let project = try copy()
        let cache = try TemporaryFolder()
        let file = project.path + "/CourierKit/ThreadNames.swift"
        try "public enum ThreadNames { public static let appGroup: Int = \"group\" }\n".write(
            toFile: file, atomically: false, encoding: .utf8)
        let failure = try await #require(throws: ExtensionBuilder.Failure.self) {
            try await builder(cache).build(try ExtensionInput.named(project.path))
        }
        #expect(
            failure.description.contains("framework target CourierKit, which the extension links, does not build"),
            "\(failure.description)")
        #expect(failure.description.contains("ThreadNames.swift:1:"), "\(failure.description)")
    }

    @Test("a product of a package the project does not name is found in a Package.swift under the project's folder")
    func productOfAnUnnamedPackage() throws {
        let project = try copy()
        let file = project.path + "/Courier.xcodeproj/project.pbxproj"
        let text = try String(contentsOfFile: file, encoding: .utf8)
        // The product dependency without its package, as in a workspace whose local package the project does not list.
        let unnamed = text.replacingOccurrences(
            of: #"isa = XCSwiftPackageProductDependency; package = [0-9A-F]+; "#,
            with: "isa = XCSwiftPackageProductDependency; ",
            options: .regularExpression)
        #expect(unnamed != text)
        try unnamed.write(toFile: file, atomically: false, encoding: .utf8)
        let input = try ExtensionInput.named(project.path)
        #expect(
            input.localProducts == [
                LocalPackages.Product(
                    folders: [project.path + "/Packages/Emoji", project.path + "/Packages/MessageFormat"],
                    product: "MessageFormat")
            ])
        #expect(!input.notes.contains { $0.contains("third-party") }, "\(input.notes)")
    }

    @Test(
        "a remote dependency that cannot be fetched is one line with SwiftPM's reason; C and binary targets are named")
    func remoteAndUncoveredTargets() async throws {
        let folder = try TemporaryFolder()
        _ = try folder.write(
            "Package.swift",
            """
            // swift-tools-version:5.9
            import PackageDescription

            let package = Package(
                name: "Media",
                products: [.library(name: "Media", targets: ["Media"])],
                dependencies: [.package(url: "https://github.com/example/ImageCache", from: "2.0.0")],
                targets: [
                    .target(name: "Media", dependencies: ["CShim", "Codec", .product(name: "ImageCache", package: "ImageCache")]),
                    .target(name: "CShim"),
                    .binaryTarget(name: "Codec", path: "Codec.xcframework"),
                ]
            )
            """)
        _ = try folder.write("Sources/Media/Media.swift", "public let media = 1\n")
        _ = try folder.write("Sources/CShim/shim.c", "int shim(void) { return 1; }\n")
        _ = try folder.write("Sources/CShim/include/shim.h", "int shim(void);\n")
        let walk = await LocalPackages.modules(
            for: [LocalPackages.Product(folders: [folder.path], product: "Media")],
            swift: ExtensionBuilder.findTool("swift"), resolveFolder: folder.path + "/fetched")
        #expect(walk.modules.map(\.name) == ["Media"])
        // One line: the package, the product, where from, and SwiftPM's own reason.
        let line = try #require(walk.notes.first { $0.contains("ImageCache") }, "\(walk.notes)")
        #expect(
            line.hasPrefix(
                "package Media depends on https://github.com/example/ImageCache, which could not be fetched (error: Failed to clone repository https://github.com/example/ImageCache: fatal:"
            ), "\(line)")
        #expect(walk.notes.filter { $0.contains("ImageCache") }.count == 1, "\(walk.notes)")
        #expect(
            walk.notes.contains(
                "target CShim of package Media: written in C or Objective-C, which is not covered (richpush compiles Swift)"
            ), "\(walk.notes)")
        #expect(
            walk.notes.contains { $0.hasPrefix("target Codec of package Media: a binary framework") }, "\(walk.notes)")
    }

    @Test("a local package folder without a Package.swift is said, not a crash")
    func missingManifest() async throws {
        let folder = try TemporaryFolder()
        let walk = await LocalPackages.modules(
            for: [LocalPackages.Product(folders: [folder.path + "/Nowhere"], product: "Nowhere")],
            swift: ExtensionBuilder.findTool("swift"))
        #expect(walk.modules.isEmpty)
        #expect(
            walk.notes == ["\(folder.path)/Nowhere: no Package.swift, so the local package of Nowhere cannot be built"])
    }

    @Test("a local package's remote dependency is fetched as SwiftPM would, built, and linked by the extension")
    func remoteDependencyIsFetched() async throws {
        // swift-tagged is on this machine's package mirror (git reads github.com from it), as on CI's.
        let folder = try TemporaryFolder()
        _ = try folder.write(
            "Packages/Ids/Package.swift",
            """
            // swift-tools-version:5.9
            import PackageDescription

            let package = Package(
                name: "Ids",
                products: [.library(name: "Ids", targets: ["Ids"])],
                dependencies: [.package(url: "https://github.com/pointfreeco/swift-tagged", from: "0.10.0")],
                targets: [.target(name: "Ids", dependencies: [.product(name: "Tagged", package: "swift-tagged")])]
            )
            """)
        _ = try folder.write(
            "Packages/Ids/Sources/Ids/OrderID.swift",
            """
            import Tagged

            public struct Order { public typealias ID = Tagged<Order, String> }
            public func orderTitle(_ id: Order.ID) -> String { "Order #" + id.rawValue }
            """)
        _ = try folder.write(
            "Extension/NotificationService.swift",
            """
            import Ids
            import UserNotifications

            class NotificationService: UNNotificationServiceExtension {
                override func didReceive(
                    _ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
                ) {
                    let content = request.content.mutableCopy() as! UNMutableNotificationContent
                    content.title = orderTitle(Order.ID(rawValue: "4413"))
                    contentHandler(content)
                }
            }
            """)
        var input = try ExtensionInput.folder(folder.path + "/Extension")
        input.localProducts = [LocalPackages.Product(folders: [folder.path + "/Packages/Ids"], product: "Ids")]
        let cache = try TemporaryFolder()
        let built = try await builder(cache).build(input)
        #expect(built.libraries.map(\.name) == ["Tagged", "Ids"])
        #expect(built.libraries.first?.origin == "target Tagged of package swift-tagged")
        #expect(FileManager.default.isExecutableFile(atPath: built.executable))
        // The checkout is in richpush's cache, not in the team's package.
        #expect(
            built.libraries.first?.swiftFiles.allSatisfy { $0.hasPrefix(cache.path + "/extensions/packages/") } == true)
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/Packages/Ids/.build"))
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/Packages/Ids/Package.resolved"))
    }

    @Test("a CocoaPods development pod is built from its podspec's files; one that does not compile is named as such")
    func developmentPod() async throws {
        let folder = try copy(repositoryRootPath + "/examples/projects/ClassicApp")
        let cache = try TemporaryFolder()
        let built = try await builder(cache).build(try ExtensionInput.named(folder.path))
        // exclude_files keeps the SwiftUI previews out.
        #expect(built.libraries.map(\.origin) == ["development pod InboxStyle"])
        #expect(built.libraries.first?.swiftFiles.count == 2)

        let file = folder.path + "/DevPods/InboxStyle/Sources/Internal/Channel.swift"
        try "enum Channel { static func normalized(_ name: String) -> String { name.lowercase() } }\n".write(
            toFile: file, atomically: false, encoding: .utf8)
        let failure = try await #require(throws: ExtensionBuilder.Failure.self) {
            try await builder(cache).build(try ExtensionInput.named(folder.path))
        }
        #expect(
            failure.description.contains("development pod InboxStyle, which the extension links, does not build"),
            "\(failure.description)")
        #expect(failure.description.contains("Channel.swift:1:"), "\(failure.description)")
    }

    @Test(
        "as in Xcode, the project's local packages stand for a dependency of the same identity; a package's name alias")
    func projectPackagesOverrideDependencies() async throws {
        let folder = try TemporaryFolder()
        // ServiceLayer names `.package(path: "DB")`, which is no folder inside it: Xcode takes the project's DB.
        _ = try folder.write(
            "ServiceLayer/Package.swift",
            """
            // swift-tools-version:5.9
            import PackageDescription

            let package = Package(
                name: "ServiceLayer",
                products: [.library(name: "ServiceLayer", targets: ["ServiceLayer"])],
                dependencies: [.package(path: "DB"), .package(name: "Fmt", path: "../Formatting")],
                targets: [
                    .target(
                        name: "ServiceLayer",
                        dependencies: [.product(name: "DB", package: "DB"), .product(name: "Formatting", package: "Fmt")])
                ]
            )
            """)
        _ = try folder.write("ServiceLayer/Sources/ServiceLayer/Service.swift", "import DB\nimport Formatting\n")
        for name in ["DB", "Formatting"] {
            _ = try folder.write(
                "\(name)/Package.swift",
                """
                // swift-tools-version:5.9
                import PackageDescription

                let package = Package(
                    name: "\(name)", products: [.library(name: "\(name)", targets: ["\(name)"])],
                    targets: [.target(name: "\(name)")])
                """)
            _ = try folder.write("\(name)/Sources/\(name)/\(name).swift", "public let name = \"\(name)\"\n")
        }
        let walk = await LocalPackages.modules(
            for: [
                LocalPackages.Product(
                    folders: [folder.path + "/DB", folder.path + "/ServiceLayer"], product: "ServiceLayer")
            ], swift: ExtensionBuilder.findTool("swift"))
        #expect(walk.modules.map(\.name) == ["DB", "Formatting", "ServiceLayer"], "\(walk.notes)")
        #expect(walk.notes.isEmpty, "\(walk.notes)")
    }

    @Test(
        "what a compiler error means: from a project, only --extension-sources is offered; CommonCrypto's names are Apple's; @objc"
    )
    func missingNameAdvice() {
        #expect(
            BuildDiagnostics.missingName("BuildEnvironment", fromProject: true)
                == "BuildEnvironment: not defined in the files the target compiles (generated by the build?); add the file that defines it with --extension-sources PATH"
        )
        #expect(BuildDiagnostics.missingName("KeychainWrapper").contains("give the app's Xcode project instead"))
        #expect(BuildDiagnostics.missingName("CCHmacContext").contains("not in the compatibility modules"))
        #expect(BuildDiagnostics.missingName("OSStatus", fromProject: true).hasPrefix("OSStatus: Apple's"))
        #expect(BuildDiagnostics.errorCount(in: "error: filename \"Package.swift\" used twice\n") == 1)
        // @objc(NotificationService) on the principal class, as real extensions write it.
        #expect(
            BuildDiagnostics.unsupported(
                in: "/x/NotificationService.swift:3:2: error: Objective-C interoperability is disabled\n"
            ).first?.hasPrefix("@objc: Swift on Linux has no Objective-C runtime") == true)
    }

    @Test("a local package whose folder cannot be read is said as unreadable, not as missing")
    func unreadablePackage() async throws {
        // As root, permissions do not stop reading: a link to itself stops it for anyone (ELOOP).
        let folder = try TemporaryFolder()
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/Emoji", withDestinationPath: "Emoji")
        let walk = await LocalPackages.modules(
            for: [LocalPackages.Product(folders: [folder.path + "/Emoji"], product: "Emoji")],
            swift: ExtensionBuilder.findTool("swift"))
        #expect(walk.modules.isEmpty)
        #expect(walk.notes.count == 1, "\(walk.notes)")
        #expect(
            walk.notes.first?.hasPrefix(folder.path + "/Emoji/Package.swift: cannot be read (") == true, "\(walk.notes)"
        )
    }
}
