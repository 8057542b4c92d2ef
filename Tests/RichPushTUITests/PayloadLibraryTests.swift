import Foundation
import Testing

@testable import RichPushTUI

@Suite struct PayloadLibraryTests {
    @Test func listsPayloadsRecursivelySortedWithoutExpectationsOrImages() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("richpush-lib-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in [
            "b.json", "a.apns", "A-upper.JSON", "b.expect.json", "images/cat.png", "fcm/v1.json", ".hidden/x.json",
            ".dot.json", "notes.txt",
        ] {
            let url = folder.appendingPathComponent(name)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("{}".utf8).write(to: url)
        }
        let library = PayloadLibrary(root: folder.path)
        #expect(try library.files() == ["A-upper.JSON", "a.apns", "b.json", "fcm/v1.json"])
        #expect(library.path(of: "fcm/v1.json") == folder.path + "/fcm/v1.json")
        #expect(PayloadLibrary(root: "payloads/").path(of: "x.json") == "payloads/x.json")
    }

    @Test func missingFolderIsAnErrorTheScreenShows() {
        let library = PayloadLibrary(root: "/nonexistent/richpush")
        #expect(library.listing() == .failure(LibraryError(message: "/nonexistent/richpush is not a folder")))
    }
}
