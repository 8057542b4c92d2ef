import CFileInfo
public import Foundation
import RichPushCore
import RichPushFiles

#if canImport(Glibc)
    import Glibc
#endif
public import Logging
import Synchronization

/// The directory downloaded attachments live in: one per process, `$TMPDIR/richpush-<pid>-<random>/`.
///
/// Files are named `<uuid>.<extension>` from the detected format, never from the URL. A download larger than it
/// keeps in memory writes `<uuid>.part`, renamed when the image is accepted and removed (see below) when it is not;
/// a smaller one is written once, under its final name, when it is accepted. Call ``remove(_:)`` when a
/// notification is discarded and ``removeAll()`` when the process exits.
///
/// Names change without ever replacing a file: `renameat2(RENAME_NOREPLACE)`, or a hard link and an unlink where
/// the file system has no such rename.
///
/// Files are recycled: a removed attachment or a refused partial file of at most ``spareBytes`` is kept as
/// `<uuid>.spare` (at most ``spareLimit`` of them), and the next download writes over a spare instead of creating a
/// file, then cuts it to its own length. On ext4 every new file searches the inode bitmap past the inodes deleted in
/// the last half minute, so creating and deleting one file per payload grew quadratic in the corpus; and a spare is
/// not emptied first, because ext4 flushes a file emptied and written again when it is closed.
///
/// A process killed before its end (SIGKILL, a crash) cannot remove its store; the next store removes it
/// (``OwnedFolder``).
public final class AttachmentStore: Sendable {
    /// The store's own directory.
    public let directory: URL
    private let logger: Logger
    private let directoryPath: String
    /// Paths of files waiting to be written over, newest last.
    private let spares = Mutex<[String]>([])
    /// How many files are kept for reuse.
    public let spareLimit: Int
    /// The largest file kept for reuse; larger ones are deleted (their bytes, not their inode, are the cost).
    public static let spareBytes = 1024 * 1024

    /// The folder, which this process holds a lock on while it runs (see ``OwnedFolder``).
    private let folder: OwnedFolder

    /// Creates a fresh directory under `parent` (default: the temporary directory), after removing the stores there
    /// that processes which ended without cleaning up left behind (SIGKILL, a crash).
    public init(parent: URL = FileManager.default.temporaryDirectory, spareLimit: Int = 64, logger: Logger) throws {
        folder = try OwnedFolder(prefix: Self.folderPrefix, in: parent.path)
        for path in folder.removedAbandoned {
            logger.debug("removed an attachment folder left behind", metadata: ["folder": "\(path)"])
        }
        self.directory = URL(fileURLWithPath: folder.path, isDirectory: true)
        self.logger = logger
        self.spareLimit = max(0, spareLimit)
        self.directoryPath = folder.path
    }

    /// Stores are named `richpush-<pid>-<random>`.
    static let folderPrefix = "richpush"

    /// A new partial file `<uuid>.part` (mode 0600, never an existing path) and a descriptor to write it from its
    /// start (``write(_:to:)``): a spare renamed and opened (the writer cuts it to its length, see
    /// ``finishPartialFile(_:length:)``), else one `open(2)` that creates it. The caller closes the descriptor.
    func makePartialFile() throws(Failure) -> (url: URL, descriptor: Int32) {
        let name = "\(Self.randomUUID()).part"
        let descriptor = try openNewFile(directoryPath + "/" + name)
        return (directory.appendingPathComponent(name, isDirectory: false), descriptor)
    }

    /// Writes all of `bytes` at the descriptor's position (``rp_write_all``).
    static func write(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) throws(Failure) {
        let failure = rp_write_all(descriptor, bytes.baseAddress, bytes.count)
        guard failure == 0 else { throw Failure(code: failure) }
    }

    /// Stores a whole body held in memory as `<uuid>.<fileExtension>`, opened as ``makePartialFile()`` opens
    /// its file: the small image that never needed a partial file (nothing else of it reached the disk).
    func create(fileExtension: String, contents: [UInt8]) throws(Failure) -> URL {
        let name = "\(Self.randomUUID()).\(fileExtension)"
        let path = directoryPath + "/" + name
        let descriptor = try openNewFile(path)
        let writeFailure = contents.withUnsafeBytes { rp_write_all(descriptor, $0.baseAddress, $0.count) }
        // Cut and closed whether or not the write went through; a failed write is the failure reported.
        do throws(Failure) {
            try finishPartialFile(descriptor, length: contents.count)
            if writeFailure != 0 { throw Failure(code: writeFailure) }
        } catch {
            unlink(path)
            throw writeFailure != 0 ? Failure(code: writeFailure) : error
        }
        return directory.appendingPathComponent(name, isDirectory: false)
    }

    /// Opens `path`, a name no file of the store has, for writing from its start: a spare renamed to it (never
    /// replacing a file) and opened, else a file created with mode 0600. Writers cut the file to their length.
    private func openNewFile(_ path: String) throws(Failure) -> Int32 {
        while let spare = spares.withLock({ $0.popLast() }) {
            guard rp_rename_noreplace(spare, path) == 0 else {
                unlink(spare)
                continue
            }
            let descriptor = open(path, O_WRONLY | O_NOFOLLOW | O_CLOEXEC)
            if descriptor >= 0 { return descriptor }
            unlink(path)
        }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw Failure.fromErrno() }
        return descriptor
    }

    /// Cuts a file written from its start to the `length` written (a recycled file may be longer) and closes its
    /// descriptor, which is closed whatever happens. A full disk may be reported only by the close.
    func finishPartialFile(_ descriptor: Int32, length: Int) throws(Failure) {
        let cut = ftruncate(descriptor, off_t(length)) == 0 ? nil : Failure.fromErrno()
        let closed = close(descriptor) == 0 ? nil : Failure.fromErrno()
        if let failure = cut ?? closed { throw failure }
    }

    /// Keeps a file of this store for the next download (`<uuid>.spare`), or deletes it when it is large or enough
    /// are kept. False when the file is not one of this store's.
    @discardableResult
    func recycle(_ file: URL) -> Bool { recycle(atPath: file.path) }

    @discardableResult
    func recycle(atPath path: String) -> Bool {
        guard path.hasPrefix(directoryPath + "/") else { return false }
        let name = path.dropFirst(directoryPath.count + 1)
        guard !name.isEmpty, !name.contains(Character("/")), name != ".", name != ".." else { return false }
        let small = (try? FileNode.itself(path).get()).map { $0.isRegularFile && $0.size <= Self.spareBytes } ?? false
        if small, spares.withLock({ $0.count < spareLimit }) {
            let spare = directoryPath + "/" + Self.randomUUID() + ".spare"
            if rp_rename_noreplace(path, spare) == 0 {
                spares.withLock { $0.append(spare) }
                return true
            }
        }
        if unlink(path) != 0, errno != ENOENT {
            logger.warning(
                "could not remove attachment",
                metadata: ["file": "\(path)", "error": "\(Failure.fromErrno())"])
        }
        return true
    }

    /// Renames a finished partial file to `<uuid>.<fileExtension>`, never replacing an existing file.
    func commit(_ partial: URL, fileExtension: String) throws -> URL {
        let final = partial.deletingPathExtension().appendingPathExtension(fileExtension)
        // Never replacing an existing file (rp_rename_noreplace). Where the file system can neither rename without
        // replacing nor make hard links, the checked move of FileManager.
        if rp_rename_noreplace(partial.path, final.path) == 0 { return final }
        let code = errno
        guard code == EPERM || code == EOPNOTSUPP || code == EXDEV else { throw Failure(code: code) }
        try FileManager.default.moveItem(at: partial, to: final)
        return final
    }

    /// A random (version 4) UUID in lowercase, its 16 bytes from one `getrandom(2)`: Foundation's `UUID()` opens
    /// /dev/urandom on every call, a file system operation per download.
    static func randomUUID() -> String {
        var bytes = [UInt8](repeating: 0, count: 16)
        if rp_random_bytes(&bytes, bytes.count) != 0 {
            var generator = SystemRandomNumberGenerator()
            for index in bytes.indices { bytes[index] = generator.next() }
        }
        bytes[6] = bytes[6] & 0x0F | 0x40  // version 4
        bytes[8] = bytes[8] & 0x3F | 0x80  // RFC 4122 variant
        // 8-4-4-4-12 digits.
        return [0..<4, 4..<6, 6..<8, 8..<10, 10..<16].map { Hexadecimal.lowercase(bytes[$0]) }.joined(separator: "-")
    }

    /// A file system call of the store failed; its description is the system's words ("No space left on device").
    struct Failure: Error, CustomStringConvertible {
        var code: Int32
        var description: String { String(cString: strerror(code)) }

        static func fromErrno() -> Failure { Failure(code: errno) }
    }

    /// Removes one file of this store (a discarded notification's attachment): deleted, or kept under a spare name
    /// for a later download to write over (see the type). Files elsewhere are left alone.
    public func remove(_ file: URL) { remove(atPath: file.path) }

    /// ``remove(_:)`` by path.
    public func remove(atPath path: String) {
        guard recycle(atPath: path) else {
            logger.warning("refusing to remove a file outside the attachment store", metadata: ["file": "\(path)"])
            return
        }
    }

    /// Deletes the whole directory (call at process exit).
    public func removeAll() {
        do {
            try FileManager.default.removeItem(at: directory)
        } catch {
            if FileNode.exists(directory.path) {
                logger.warning("could not remove attachment store", metadata: ["error": "\(error)"])
            }
        }
    }

    /// The attachments and partial files currently in the store, sorted by name (empty once everything was
    /// removed); the spares and the lock file are not listed.
    public func files() -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { !$0.hasSuffix(".spare") && !$0.hasPrefix(".") }.sorted().map {
            directory.appendingPathComponent($0, isDirectory: false)
        }
    }

    /// How many files wait to be written over.
    public var spareCount: Int { spares.withLock { $0.count } }
}

extension AttachmentStore: StoppedAtShutdown {
    /// As a part of a program: ``removeAll()``. Started before the parts that write attachments, it is removed after
    /// they stopped.
    public func shutdown() { removeAll() }
}
