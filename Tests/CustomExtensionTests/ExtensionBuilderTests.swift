import Foundation
import RichPushTestSupport
import Testing

@testable import RichPushCustomExtension

@Suite("How richpush reads a team's extension folder")
struct ExtensionBuilderTests {
    @Test("the principal class: Info.plist's NSExtensionPrincipalClass without the module, else the one subclass")
    func principalClass() throws {
        let folder = try TemporaryFolder()
        let source = try folder.write(
            "Service.swift", "final class Custom : UNNotificationServiceExtension {}\nclass Other: NSObject {}\n")
        let sources = try ExtensionBuilder.sources(in: folder.path)
        #expect(sources.map(\.path) == [source])
        #expect(try ExtensionBuilder.principalClass(in: folder.path, sources: sources) == "Custom")

        _ = try folder.write(
            "Info.plist",
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>NSExtension</key><dict>
            <key>NSExtensionPrincipalClass</key><string>$(PRODUCT_MODULE_NAME).Declared</string>
            </dict></dict></plist>
            """)
        #expect(try ExtensionBuilder.principalClass(in: folder.path, sources: sources) == "Declared")
    }

    @Test("the principal class through base classes: the team's own, a vendor's (qualified or not), an empty subclass")
    func principalClassThroughBaseClasses() {
        let roots = ["UNNotificationServiceExtension", "UANotificationServiceExtension", "Braze.NotificationService"]
        func find(_ texts: String...) -> (String?, [String]) { PrincipalClassFinder.find(in: texts, roots: roots) }
        // A base class of the team's own between the principal class and Apple's.
        #expect(
            find("class Base: UNNotificationServiceExtension {}", "final class NotificationService: Base {}").0
                == "NotificationService")
        // An empty subclass of a vendor's base class.
        #expect(find("class NotificationService: UANotificationServiceExtension {}").0 == "NotificationService")
        // The vendor's class of the same name, qualified by its module.
        #expect(find("class NotificationService: Braze.NotificationService {}").0 == "NotificationService")
        // Not a subclass: a protocol conformance, a class in a comment, an unrelated class.
        #expect(
            find(
                "// class Old: UNNotificationServiceExtension {}\nclass Helper: NSObject {}",
                "/* class Older: UNNotificationServiceExtension {} */"
            ).1.isEmpty)
        // Two leaves: both named, neither chosen.
        let two = find("class A: UNNotificationServiceExtension {}", "class B: UANotificationServiceExtension {}")
        #expect(two.0 == nil && two.1 == ["A", "B"])
        // A cycle in the sources ends.
        #expect(find("class A: B {}", "class B: A {}").1.isEmpty)
    }

    @Test("a folder named through a symbolic link is read; a FIFO named .swift is an error naming it, never opened")
    func hostileFolders() throws {
        let folder = try TemporaryFolder()
        let source = try folder.write("real/Service.swift", "class S: UNNotificationServiceExtension {}\n")
        let link = folder.path + "/linked"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: folder.path + "/real")
        #expect(try ExtensionBuilder.sources(in: link).map(\.path) == [link + "/Service.swift"])
        #expect(FileManager.default.fileExists(atPath: source))

        try FileManager.default.createDirectory(atPath: folder.path + "/fifo", withIntermediateDirectories: true)
        let fifo = try folder.fifo("fifo/NotificationService.swift")
        #expect {
            try ExtensionBuilder.sources(in: folder.path + "/fifo")
        } throws: { error in
            "\(error)".contains(fifo) && "\(error)".contains("a FIFO")
        }
    }

    @Test("two subclasses and no Info.plist: an error naming both and the flag")
    func ambiguous() throws {
        let folder = try TemporaryFolder()
        _ = try folder.write("A.swift", "class A: UNNotificationServiceExtension {}\n")
        _ = try folder.write("B.swift", "class B: UNNotificationServiceExtension {}\n")
        let sources = try ExtensionBuilder.sources(in: folder.path)
        #expect {
            try ExtensionBuilder.principalClass(in: folder.path, sources: sources)
        } throws: { error in
            "\(error)".contains("A, B") && "\(error)".contains("--principal-class")
        }
    }

    @Test("compiler errors become one line per import or API richpush does not provide")
    func unsupported() {
        let diagnostics = """
            /x/NotificationService.swift:1:8: error: no such module 'PushKit'
            /x/NotificationService.swift:9:9: error: cannot find 'INSendMessageIntent' in scope
            /x/NotificationService.swift:9:9: error: cannot find 'INSendMessageIntent' in scope
            /x/NotificationService.swift:3:1: warning: unused
            """
        let lines = ExtensionBuilder.unsupported(in: diagnostics)
        #expect(lines.count == 2)
        #expect(lines[0].hasPrefix("import PushKit: Apple's PushKit is not provided"))
        #expect(lines[1].hasPrefix("INSendMessageIntent: not in the compatibility modules"))
        // A vendor richpush does not emulate, Apple's framework it lacks, a library, a type of the app's.
        let more = ExtensionBuilder.unsupported(
            in: """
                /x/N.swift:1:8: error: no such module 'WebEngageBannerPush'
                /x/N.swift:2:8: error: no such module 'CallKit'
                /x/N.swift:3:8: error: no such module 'Kingfisher'
                /x/N.swift:9:9: error: cannot find 'KeychainWrapper' in scope
                """)
        #expect(more[0].contains("WebEngage's SDK, which richpush does not emulate") && more[0].contains("OneSignal"))
        #expect(more[1].contains("Apple's CallKit is not provided"))
        #expect(more[2].contains("Kingfisher: a third-party library richpush does not provide"))
        #expect(
            more[3].contains("KeychainWrapper: not defined in the extension's files")
                && more[3].contains("--extension-sources"))
    }

    @Test(
        "Apple's modules are never called a third-party library: SQLite3, Compression, Combine, CoreData, WidgetKit",
        arguments: ["SQLite3", "Compression", "Combine", "CoreData", "WidgetKit"])
    func appleModulesAreApples(name: String) {
        let lines = ExtensionBuilder.unsupported(in: "/x/N.swift:1:8: error: no such module '\(name)'")
        #expect(
            lines == [
                "import \(name): Apple's \(name) is not provided (richpush provides \(BuildDiagnostics.appleFrameworks.filter { $0 != "Foundation" }.joined(separator: ", ")))"
            ])
    }

    @Test("swiftc --version leaves nothing in the temporary folder: it gets one of its own")
    func toolTemporaryFolder() async throws {
        let (status, output) = await ExtensionBuilder.run(
            "/bin/sh", ["-c", #"mkdir "$TMPDIR/TemporaryDirectory.left" && echo "$TMPDIR""#], ownTemporaryFolder: true)
        #expect(status == 0, "\(output)")
        let given = output.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(given != FileManager.default.temporaryDirectory.path && given.contains("/richpush-tool-"), "\(given)")
        #expect(!FileManager.default.fileExists(atPath: given), "\(given) is left behind")
    }

    @Test("the diagnostics keep the compiler's lines about the team's files and drop the driver's about its job")
    func driverNoise() {
        let output = """
            error: emit-module command failed with exit code 1 (use -v to see invocation)
            /x/N.swift:3:8: error: no such module 'Kingfisher'
            error: compile command failed due to signal 6 (use -v to see invocation)
            """
        let kept = BuildDiagnostics.forTheTeam(output)
        #expect(
            kept
                == "/x/N.swift:3:8: error: no such module 'Kingfisher'\nerror: compile command failed due to signal 6 (use -v to see invocation)"
        )
    }

    @Test("the footprint is statm's resident pages minus its shared ones")
    func footprint() {
        #expect(MemoryFootprint.bytes(inStatm: "5000 3000 1000 10 0 2500 0\n") == 2000 * MemoryFootprint.pageSize)
        #expect(MemoryFootprint.bytes(inStatm: "garbage") == nil)
        #expect(MemoryFootprint.bytes(of: getpid()).map { $0 > 0 } == true)
    }

    @Test("a generated project that is not in the checkout is said as such, never read as a folder of Swift files")
    func generatedProjects() throws {
        let folder = try TemporaryFolder()
        _ = try folder.write("App/Riot.xcodeproj/xcshareddata/xcschemes/Riot.xcscheme", "<Scheme/>\n")
        _ = try folder.write("App/NotificationService/NotificationService.swift", "class NotificationService {}\n")
        let noFile = try #require(throws: ExtensionInput.Failure.self) {
            try ExtensionInput.named(folder.path + "/App/Riot.xcodeproj")
        }
        #expect(noFile.description.contains("no project.pbxproj in it"), "\(noFile.description)")
        #expect(noFile.description.contains("XcodeGen or Tuist"), "\(noFile.description)")

        _ = try folder.write(
            "App/tuta.xcworkspace/contents.xcworkspacedata",
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <Workspace version = "1.0">
               <FileRef location = "group:tutanota.xcodeproj"></FileRef>
               <FileRef location = "group:calendar.xcodeproj"></FileRef>
            </Workspace>
            """)
        let workspace = try #require(throws: ExtensionInput.Failure.self) {
            try ExtensionInput.named(folder.path + "/App/tuta.xcworkspace")
        }
        #expect(
            workspace.description.contains(
                "the workspace lists tutanota.xcodeproj, calendar.xcodeproj, which are not in the checkout"),
            "\(workspace.description)")

        _ = try folder.write("Tuisted/Project.swift", "import ProjectDescription\n")
        _ = try folder.write("Tuisted/Ext/NotificationService.swift", "class NotificationService {}\n")
        let tuist = try #require(throws: ExtensionInput.Failure.self) {
            try ExtensionInput.named(folder.path + "/Tuisted")
        }
        #expect(
            tuist.description.contains("generated by Tuist (tuist generate) from Project.swift"), "\(tuist.description)"
        )
    }

    @Test("a Package.swift in an extension's folder is SwiftPM's manifest, not a source of the extension")
    func manifestsAreNotSources() throws {
        let folder = try TemporaryFolder()
        let service = try folder.write("NotificationService.swift", "class NotificationService {}\n")
        _ = try folder.write("Package.swift", "// swift-tools-version:5.9\n")
        _ = try folder.write("Kit/Package.swift", "// swift-tools-version:5.9\n")
        #expect(try ExtensionInput.folder(folder.path).swiftFiles == [service])
    }
}
