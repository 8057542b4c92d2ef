import Foundation
import RichPushNetwork
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A process killed before its end (SIGKILL, a crash) leaves its attachment folder behind; the next store removes
/// it, and nothing else.
@Suite("AttachmentStore: folders left behind")
struct AbandonedStoreTests {
    /// A folder as a store makes it, with a lock file nobody holds (its process is gone) and an attachment.
    static func abandonedStore(in parent: URL, name: String = "richpush-4242-abc123") throws -> String {
        let path = parent.path + "/" + name
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        #expect(FileManager.default.createFile(atPath: path + "/.owner", contents: Data()))
        #expect(FileManager.default.createFile(atPath: path + "/left.png", contents: Data([1, 2, 3])))
        return path
    }

    /// Whether `path` itself exists (a link counts, whatever it points at).
    static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    @Test("a store whose process is gone is removed when the next one is made")
    func abandonedStoreIsRemoved() throws {
        let parent = try makeTemporaryDirectory("abandoned")
        defer { try? FileManager.default.removeItem(at: parent) }
        let left = try Self.abandonedStore(in: parent)

        let store = try AttachmentStore(parent: parent, logger: quietLogger)
        defer { store.removeAll() }
        #expect(!FileManager.default.fileExists(atPath: left), "the abandoned folder is still there")
        #expect(try FileManager.default.contentsOfDirectory(atPath: parent.path) == [store.directory.lastPathComponent])
    }

    @Test("a store whose process still runs is left alone, and so is everything not made as a store")
    func othersAreLeftAlone() throws {
        let parent = try makeTemporaryDirectory("abandoned")
        defer { try? FileManager.default.removeItem(at: parent) }
        // A live store: its lock is held (by this process, through another open file).
        let running = try AttachmentStore(parent: parent, logger: quietLogger)
        defer { running.removeAll() }
        // Not made as a store: no lock file; a name of another shape; a lock file that is a FIFO.
        let noLock = parent.path + "/richpush-1-nolock"
        try FileManager.default.createDirectory(atPath: noLock, withIntermediateDirectories: false)
        let otherName = try Self.abandonedStore(in: parent, name: "richpush-backup-abc")
        let fifoLock = parent.path + "/richpush-2-fifo"
        try FileManager.default.createDirectory(atPath: fifoLock, withIntermediateDirectories: false)
        #expect(mkfifo(fifoLock + "/.owner", 0o600) == 0)
        // A link named as a store, to an abandoned store elsewhere: neither the link nor its target is removed.
        let elsewhere = try makeTemporaryDirectory("elsewhere")
        defer { try? FileManager.default.removeItem(at: elsewhere) }
        let target = try Self.abandonedStore(in: elsewhere)
        try FileManager.default.createSymbolicLink(
            atPath: parent.path + "/richpush-3-link", withDestinationPath: target)

        let next = try AttachmentStore(parent: parent, logger: quietLogger)
        defer { next.removeAll() }
        for kept in [running.directory.path, noLock, otherName, fifoLock, parent.path + "/richpush-3-link", target] {
            #expect(Self.exists(kept), "\(kept) was removed")
        }
        #expect(FileManager.default.fileExists(atPath: target + "/left.png"))
    }
}
