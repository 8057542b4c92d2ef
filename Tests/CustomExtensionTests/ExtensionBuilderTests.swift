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
            /x/NotificationService.swift:1:8: error: no such module 'Intents'
            /x/NotificationService.swift:9:9: error: cannot find 'INSendMessageIntent' in scope
            /x/NotificationService.swift:9:9: error: cannot find 'INSendMessageIntent' in scope
            /x/NotificationService.swift:3:1: warning: unused
            """
        let lines = ExtensionBuilder.unsupported(in: diagnostics)
        #expect(lines.count == 2)
        #expect(lines[0].hasPrefix("import Intents: not provided"))
        #expect(lines[1].hasPrefix("INSendMessageIntent: not in the compatibility modules"))
    }

    @Test("the footprint is statm's resident pages minus its shared ones")
    func footprint() {
        #expect(MemoryFootprint.bytes(inStatm: "5000 3000 1000 10 0 2500 0\n") == 2000 * MemoryFootprint.pageSize)
        #expect(MemoryFootprint.bytes(inStatm: "garbage") == nil)
        #expect(MemoryFootprint.bytes(of: getpid()).map { $0 > 0 } == true)
    }
}
