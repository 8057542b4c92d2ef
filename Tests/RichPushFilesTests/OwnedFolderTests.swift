import Foundation
import RichPushFiles
import RichPushTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A process killed before its end (SIGKILL, a crash) leaves its temporary folders behind (attachments, the
/// extension's containers); the next command removes them, and nothing else.
@Suite struct OwnedFolderTests {
    /// A folder as ``OwnedFolder`` makes it, with a lock file nobody holds (its process is gone) and a file.
    static func abandoned(in parent: String, name: String = "richpush-4242-abc123") throws -> String {
        let path = parent + "/" + name
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        #expect(FileManager.default.createFile(atPath: path + "/.owner", contents: Data()))
        #expect(FileManager.default.createFile(atPath: path + "/left.png", contents: Data([1, 2, 3])))
        return path
    }

    /// Whether `path` itself exists (a link counts, whatever it points at).
    static func exists(_ path: String) -> Bool {
        if case .success = FileNode.itself(path) { true } else { false }
    }

    @Test("a new folder is the owner's (mode 0700), named prefix-pid-random, its lock file hidden in it")
    func made() throws {
        let parent = try TemporaryFolder()
        let folder = try OwnedFolder(prefix: "richpush", in: parent.path)
        let name = URL(fileURLWithPath: folder.path).lastPathComponent
        #expect(name.hasPrefix("richpush-\(getpid())-"), "\(name)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == [".owner"])
        let mode = try FileManager.default.attributesOfItem(atPath: folder.path)[.posixPermissions] as? Int
        #expect(mode == 0o700)
        #expect(throws: FileProblem(errno: ENOENT)) { try OwnedFolder(prefix: "richpush", in: parent.path + "/none") }
    }

    @Test("a folder whose process is gone is removed")
    func abandonedFolderIsRemoved() throws {
        let parent = try TemporaryFolder()
        let left = try Self.abandoned(in: parent.path)
        #expect(OwnedFolder.removeAbandoned(prefix: "richpush", in: parent.path) == [left])
        #expect(!Self.exists(left), "the abandoned folder is still there")
    }

    @Test("a folder whose process still runs is left alone, and so is everything not made as such a folder")
    func othersAreLeftAlone() throws {
        let parent = try TemporaryFolder()
        // A live folder: its lock is held (by this process, through another open file).
        let running = try OwnedFolder(prefix: "richpush", in: parent.path)
        // Not made as an owned folder: no lock file; a name of another shape or prefix; a lock file that is a FIFO.
        let noLock = parent.path + "/richpush-1-nolock"
        try FileManager.default.createDirectory(atPath: noLock, withIntermediateDirectories: false)
        let otherName = try Self.abandoned(in: parent.path, name: "richpush-backup-abc")
        let otherPrefix = try Self.abandoned(in: parent.path, name: "richpush-extension-5-abc")
        let fifoLock = parent.path + "/richpush-2-fifo"
        try FileManager.default.createDirectory(atPath: fifoLock, withIntermediateDirectories: false)
        #expect(mkfifo(fifoLock + "/.owner", 0o600) == 0)
        // A link named as an owned folder, to an abandoned one elsewhere: neither the link nor its target goes.
        let elsewhere = try TemporaryFolder()
        let target = try Self.abandoned(in: elsewhere.path)
        try FileManager.default.createSymbolicLink(
            atPath: parent.path + "/richpush-3-link", withDestinationPath: target)

        #expect(OwnedFolder.removeAbandoned(prefix: "richpush", in: parent.path).isEmpty)
        for kept in [running.path, noLock, otherName, otherPrefix, fifoLock, parent.path + "/richpush-3-link", target] {
            #expect(Self.exists(kept), "\(kept) was removed")
        }
        #expect(Self.exists(target + "/left.png"))
        // With its own prefix, the extension's folder is found.
        #expect(OwnedFolder.removeAbandoned(prefix: "richpush-extension", in: parent.path) == [otherPrefix])
    }
}
