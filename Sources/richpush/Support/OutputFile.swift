import Foundation
import RichPushFiles

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file the user named for richpush to write (`replay --output`, `serve-fixtures --ca-out`), written in place
/// and only once the text is ready: never emptied before, never replaced by another file. A symlink stays a
/// symlink and its target gets the text; a device (`/dev/full`, a terminal) or a FIFO is written to, not replaced;
/// and a path that names richpush's own standard output or error (`/dev/stdout`) is written through the
/// descriptor richpush already holds, which works for any user.
struct OutputFile: Sendable {
    let path: String
    /// The file the path led to when it was checked (symlinks followed).
    private let node: FileNode?
    /// A FIFO that had a reader when it was checked stays open until the text is written: closing it would end
    /// the reader's input (it sees end-of-file), and opening it again would then wait for a reader that is gone.
    private let heldFIFO: Int32?

    /// Why a path cannot be written: the system's words, e.g. "No space left on device".
    struct Failure: Error, Sendable {
        var path: String
        var reason: String
    }

    /// Checks that `path` can be written without changing what it holds; a missing file is created empty, as
    /// the shell's `>` would. Throws the reason when it cannot be opened for writing.
    init(checking path: String) throws(Failure) {
        self.path = path
        if let standard = Self.standardDescriptor(for: path) {
            node = try? FileNode.of(descriptor: standard).get()
            heldFIFO = nil
            return
        }
        // No O_TRUNC: the contents stay until the text is ready. O_NONBLOCK: a FIFO with no reader yet answers
        // ENXIO at once instead of hanging the check; it gets its text (and its reader) at the end.
        let descriptor = open(path, O_WRONLY | O_CREAT | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0o666)
        if descriptor < 0 {
            let failure = errno
            guard failure == ENXIO else {
                throw Failure(path: path, reason: FileDescriptorWriter.describe(failure))
            }
            node = try? FileNode.following(path).get()
            heldFIFO = nil
            return
        }
        node = try? FileNode.of(descriptor: descriptor).get()
        if node?.isFIFO == true {
            // Blocking from here on, as the shell's `>` would write to it.
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
            heldFIFO = descriptor
            return
        }
        heldFIFO = nil
        close(descriptor)
    }

    /// Whether `other` is the file this one leads to (same device and inode, symlinks and hard links included):
    /// writing here would overwrite it.
    func isSameFile(as other: String) -> Bool {
        guard let node, node.isRegularFile, let otherNode = try? FileNode.following(other).get() else { return false }
        return node.identity == otherNode.identity
    }

    /// Replaces the contents with `text`, in place, and writes it fully.
    func write(_ text: String) throws(Failure) {
        let bytes = Array(text.utf8)
        let target = try openForWriting()
        guard target.owned else {
            if let failure = FileDescriptorWriter.writeAll(bytes, to: target.descriptor) {
                throw Failure(path: path, reason: FileDescriptorWriter.describe(failure))
            }
            return
        }
        try Self.finish(target.descriptor, path: path, bytes: bytes, removingOnFailure: false)
    }

    /// Where the text goes, from its start: richpush's own standard output or error when the path leads to one of
    /// them (`owned` false: not to be closed), the FIFO held since the check, else the path opened and emptied.
    /// The caller closes an owned descriptor when the text is written.
    func openForWriting() throws(Failure) -> (descriptor: Int32, owned: Bool) {
        if let standard = Self.standardDescriptor(for: path) { return (standard, false) }
        if let heldFIFO { return (heldFIFO, true) }
        if node?.isFIFO == true { return (try waitForReader(), true) }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOCTTY | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else { throw Failure(path: path, reason: FileDescriptorWriter.describe(errno)) }
        return (descriptor, true)
    }

    /// Opens the FIFO that had no reader at the check once a reader opens it. A blocking `open` would wait in the
    /// kernel where no signal reaches the command (SIGTERM left `serve --ca-out FIFO` waiting), so it is tried
    /// without blocking every 50 ms, until the task running it is cancelled (the command was asked to stop).
    private func waitForReader() throws(Failure) -> Int32 {
        while true {
            let descriptor = open(path, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
            if descriptor >= 0 {
                // Blocking from here on, as the shell's `>` would write to it.
                _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
                return descriptor
            }
            let failure = errno
            guard failure == ENXIO || failure == EINTR else {
                throw Failure(path: path, reason: FileDescriptorWriter.describe(failure))
            }
            if Task.isCancelled { throw Failure(path: path, reason: "stopped before a reader opened the FIFO") }
            usleep(50_000)
        }
    }

    /// Writes `bytes` fully to the open `descriptor` and closes it (some file systems report a full disk only
    /// then); on failure the file the caller created is removed, and the error names `path`.
    private static func finish(_ descriptor: Int32, path: String, bytes: [UInt8], removingOnFailure: Bool)
        throws(Failure)
    {
        let writeFailure = FileDescriptorWriter.writeAll(bytes, to: descriptor)
        let closeFailure = close(descriptor) == 0 ? nil : errno
        if let failure = writeFailure ?? closeFailure {
            if removingOnFailure { unlink(path) }
            throw Failure(path: path, reason: FileDescriptorWriter.describe(failure))
        }
    }

    /// Creates the file at `path`, which must not exist yet (nothing is ever replaced), holding `text`.
    static func createNew(_ path: String, text: String) throws(Failure) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOCTTY | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw Failure(path: path, reason: FileDescriptorWriter.describe(errno)) }
        try finish(descriptor, path: path, bytes: Array(text.utf8), removingOnFailure: true)
    }

    /// Standard output or error when `path` leads to the very file one of them is open on.
    private static func standardDescriptor(for path: String) -> Int32? {
        guard let target = try? FileNode.following(path).get() else { return nil }
        return [STDOUT_FILENO, STDERR_FILENO].first {
            (try? FileNode.of(descriptor: $0).get())?.identity == target.identity
        }
    }
}
