import CFileInfo
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a path is, read with `stat(2)` (links followed) or `lstat(2)`: the facts discovery and reading
/// decide on, so that only regular files are ever opened as payloads.
struct FileNode: Sendable, Equatable {
    /// The file's type, as the C shim reports it; the names discovery decides on, and the phrase for messages.
    struct Kind: Sendable, Equatable {
        let raw: rp_file_kind

        init(_ raw: rp_file_kind) { self.raw = raw }

        static let regular = Kind(RP_FILE_REGULAR)
        static let directory = Kind(RP_FILE_DIRECTORY)
        static let symlink = Kind(RP_FILE_SYMLINK)

        /// "a FIFO (named pipe)", "a folder", … for messages.
        var phrase: String { String(cString: rp_file_kind_phrase(raw)) }

        static func == (lhs: Kind, rhs: Kind) -> Bool { lhs.raw == rhs.raw }
    }

    /// Identity of the file itself, so one file reached by two paths is recognised.
    struct Identity: Sendable, Hashable {
        var device: UInt64
        var inode: UInt64
    }

    var kind: Kind
    var size: Int
    var identity: Identity

    init(_ info: rp_file_info) {
        kind = Kind(info.kind)
        size = Int(info.size)
        identity = Identity(device: info.device, inode: info.inode)
    }

    /// The node at `path`, links followed; the error is the system's message ("No such file or directory").
    static func following(_ path: String) -> Result<FileNode, FileProblem> {
        var info = rp_file_info()
        guard rp_file_info_at(path, 1, &info) == 0 else { return .failure(FileProblem(errno: errno)) }
        return .success(FileNode(info))
    }

    /// The node at `path` itself, a link not followed.
    static func itself(_ path: String) -> Result<FileNode, FileProblem> {
        var info = rp_file_info()
        guard rp_file_info_at(path, 0, &info) == 0 else { return .failure(FileProblem(errno: errno)) }
        return .success(FileNode(info))
    }

    /// The node an open descriptor refers to.
    static func of(descriptor: Int32) -> Result<FileNode, FileProblem> {
        var info = rp_file_info()
        guard rp_file_info_of(descriptor, &info) == 0 else { return .failure(FileProblem(errno: errno)) }
        return .success(FileNode(info))
    }
}

/// A failed system call on a file, in words.
struct FileProblem: Error, Sendable, Equatable, CustomStringConvertible {
    var code: Int32
    var message: String

    init(errno code: Int32) {
        self.code = code
        self.message = String(cString: strerror(code))
    }

    init(_ message: String) {
        self.code = 0
        self.message = message
    }

    var description: String { message }
}

/// Reads files without ever blocking on something that is not a regular file.
public enum SafeFileReader {
    public enum Outcome: Sendable, Equatable {
        /// The whole file, at most `limit` bytes.
        case bytes([UInt8])
        /// Larger than `limit`: only its size (the file's own, links followed) was read.
        case tooLarge(size: Int)
        case failure(String)
    }

    /// Opens `path` without blocking (a FIFO or a device would block a plain open), checks on the open file
    /// that it is a regular file, and reads it if it holds at most `limit` bytes.
    public static func read(_ path: String, limit: Int) -> Outcome {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            let problem = FileProblem(errno: errno)
            if problem.code == EACCES { return .failure("cannot read the file: permission denied") }
            if problem.code == ENOENT { return .failure("cannot open the file: missing, or a broken link") }
            return .failure("cannot open the file: \(problem)")
        }
        defer { close(descriptor) }
        let node: FileNode
        switch FileNode.of(descriptor: descriptor) {
        case .success(let opened): node = opened
        case .failure(let problem): return .failure("cannot read the file: \(problem)")
        }
        guard node.kind == .regular else { return .failure("is \(node.kind.phrase), not a regular file") }
        guard node.size <= limit else { return .tooLarge(size: node.size) }
        // Room for the size fstat gave and one byte more (a payload's buffer is its size, not the limit); while a
        // file that grew since fills it, it grows, up to `limit + 1` bytes.
        var bytes: [UInt8] = []
        var capacity = min(limit, node.size) + 1
        while true {
            var failure: Int32 = 0
            let more = [UInt8](unsafeUninitializedCapacity: capacity - bytes.count) { buffer, initialized in
                let got = rp_read_full(descriptor, buffer.baseAddress, buffer.count)
                if got < 0 { failure = errno }
                initialized = max(0, got)
            }
            if failure != 0 { return .failure("cannot read the file: \(FileProblem(errno: failure))") }
            if bytes.isEmpty { bytes = more } else { bytes += more }
            guard bytes.count == capacity, capacity <= limit else { break }
            capacity = min(limit + 1, capacity * 2)
        }
        // The file grew after fstat: judge by what is there now.
        if bytes.count > limit { return .tooLarge(size: max(bytes.count, node.size)) }
        return .bytes(bytes)
    }
}
