import Foundation
import RichPushCore
import RichPushNetwork
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The attachment store writes each download into an emptied file of an earlier one instead of creating a file
/// (ext4 makes creating files after deleting many quadratic), and nothing of the earlier image survives.
@Suite("AttachmentStore: recycled files")
struct AttachmentRecyclingTests {
    static func inode(_ url: URL) throws -> UInt64 {
        var info = stat()
        try #require(stat(url.path, &info) == 0, "stat \(url.path)")
        return UInt64(info.st_ino)
    }

    /// The spare files on disk, read from the store's folder (not from the store's own count).
    static func spareFiles(in store: AttachmentStore) throws -> [URL] {
        try FileManager.default.contentsOfDirectory(atPath: store.directory.path).filter { $0.hasSuffix(".spare") }
            .map { store.directory.appendingPathComponent($0) }
    }

    @Test("a discarded attachment's file takes the next download: same inode, exactly the new bytes, no spare listed")
    func discardedFileIsReused() async throws {
        try await withHarness { harness in
            // The larger image first, so a file not emptied would keep its tail behind the smaller one.
            let (first, _) = await harness.download("photo-progressive.jpg")
            let large = try #require(first.success, "\(String(describing: first.failure))")
            let largeInode = try Self.inode(large.file)
            await harness.downloader.discard(large)
            #expect(harness.leftovers.isEmpty, "the spare is not an attachment")
            #expect(harness.store.spareCount == 1)
            // The file itself is kept on disk under a spare name (not deleted, so its inode cannot be handed out anew).
            let spares = try Self.spareFiles(in: harness.store)
            #expect(try spares.map(Self.inode) == [largeInode], "\(spares)")

            let (second, _) = await harness.download("cat.png")
            let small = try #require(second.success, "\(String(describing: second.failure))")
            #expect(try Self.inode(small.file) == largeInode, "written into the recycled file")
            #expect(try Data(contentsOf: small.file) == (try fixtureBytes("cat.png")), "no byte of the JPEG left")
            #expect(small.file.pathExtension == "png")
            #expect(harness.store.spareCount == 0)
            #expect(try Self.spareFiles(in: harness.store).isEmpty)
            #expect(harness.leftovers == [small.file.lastPathComponent])
            await harness.downloader.discard(small)
        }
    }

    @Test("a refused small body never reaches the disk: no attachment, no partial file, no spare")
    func refusedSmallBodyLeavesNothing() async throws {
        try await withHarness { harness in
            let (refused, _) = await harness.download("page.html?type=image/png")
            #expect(refused.failure?.reason == .notAnImage, "\(String(describing: refused))")
            #expect(harness.leftovers.isEmpty)
            #expect(harness.store.spareCount == 0)
            let names = try FileManager.default.contentsOfDirectory(atPath: harness.store.directory.path)
            #expect(names == [".owner"], "only the store's lock file: \(names)")
        }
    }

    @Test("a refused download's partial file is recycled too, and the next good download gets exactly its bytes")
    func refusedPartialIsRecycled() async throws {
        try await withHarness { harness in
            // Larger than a download keeps in memory, so it is written to a partial file while it streams.
            let (refused, _) = await harness.download("page.html?type=image/png&pad=100KB")
            #expect(refused.failure?.reason == .notAnImage, "\(String(describing: refused))")
            #expect(harness.leftovers.isEmpty)
            #expect(harness.store.spareCount == 1)
            let spareInodes = try Self.spareFiles(in: harness.store).map(Self.inode)
            #expect(spareInodes.count == 1)
            let (good, _) = await harness.download("spinner.gif")
            let image = try #require(good.success, "\(String(describing: good.failure))")
            #expect(try [Self.inode(image.file)] == spareInodes, "written into the refused download's file")
            #expect(try Self.spareFiles(in: harness.store).isEmpty)
            #expect(try Data(contentsOf: image.file) == (try fixtureBytes("spinner.gif")))
            await harness.downloader.discard(image)
        }
    }

    @Test("at most spareLimit files of at most 1 MB are kept; the rest are deleted, and removeAll takes the spares")
    func boundedSpares() throws {
        let parent = try makeTemporaryDirectory("spares")
        defer { try? FileManager.default.removeItem(at: parent) }
        let store = try AttachmentStore(parent: parent, spareLimit: 2, logger: quietLogger)
        let large = store.directory.appendingPathComponent("large.png")
        try Data(repeating: 7, count: AttachmentStore.spareBytes + 1).write(to: large)
        store.remove(large)
        #expect(store.spareCount == 0, "a large file is deleted: its bytes, not its inode, are the cost")
        #expect(!FileManager.default.fileExists(atPath: large.path))

        var written: [URL] = []
        for index in 0..<5 {
            let file = store.directory.appendingPathComponent("a\(index).png")
            try Data(repeating: 7, count: 1000).write(to: file)
            written.append(file)
        }
        for file in written { store.remove(file) }
        #expect(store.spareCount == 2)
        let names = try FileManager.default.contentsOfDirectory(atPath: store.directory.path)
            .filter { $0 != ".owner" }
        #expect(names.count == 2 && names.allSatisfy { $0.hasSuffix(".spare") }, "\(names)")
        #expect(store.files().isEmpty, "spares are not attachments")
        store.removeAll()
        #expect(!FileManager.default.fileExists(atPath: store.directory.path))
    }

    @Test("a file outside the store is never recycled or removed")
    func outsideFileLeftAlone() throws {
        let parent = try makeTemporaryDirectory("outside")
        defer { try? FileManager.default.removeItem(at: parent) }
        let store = try AttachmentStore(parent: parent, logger: quietLogger)
        let outside = parent.appendingPathComponent("keep.png")
        try Data([1, 2, 3]).write(to: outside)
        store.remove(outside)
        store.remove(store.directory.appendingPathComponent("../keep.png"))
        #expect(try Data(contentsOf: outside) == Data([1, 2, 3]))
        #expect(store.spareCount == 0)
        store.removeAll()
    }
}
