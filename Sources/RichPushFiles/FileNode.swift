internal import CFileInfo

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a path or an open file is, read with `stat(2)` (links followed), `lstat(2)` or `fstat(2)`: the one
/// way richpush decides whether something is a regular file, a folder or a FIFO, how large it is and whether two
/// paths lead to the same file.
public struct FileNode: Sendable, Equatable {
    /// The file's type; ``phrase`` names it in messages.
    public enum Kind: Sendable, Equatable {
        case regular
        case directory
        case fifo
        case socket
        case characterDevice
        case blockDevice
        case symlink
        case other

        init(_ raw: rp_file_kind) {
            self =
                switch raw {
                case RP_FILE_REGULAR: .regular
                case RP_FILE_DIRECTORY: .directory
                case RP_FILE_FIFO: .fifo
                case RP_FILE_SOCKET: .socket
                case RP_FILE_CHARACTER_DEVICE: .characterDevice
                case RP_FILE_BLOCK_DEVICE: .blockDevice
                case RP_FILE_SYMLINK: .symlink
                default: .other
                }
        }

        private var raw: rp_file_kind {
            switch self {
            case .regular: RP_FILE_REGULAR
            case .directory: RP_FILE_DIRECTORY
            case .fifo: RP_FILE_FIFO
            case .socket: RP_FILE_SOCKET
            case .characterDevice: RP_FILE_CHARACTER_DEVICE
            case .blockDevice: RP_FILE_BLOCK_DEVICE
            case .symlink: RP_FILE_SYMLINK
            case .other: RP_FILE_OTHER
            }
        }

        /// "a regular file", "a folder", "a FIFO (named pipe)", … for messages.
        public var phrase: String { String(cString: rp_file_kind_phrase(raw)) }
    }

    /// Device and inode: what makes two paths the same file, symbolic and hard links included.
    public struct Identity: Sendable, Hashable {
        public var device: UInt64
        public var inode: UInt64
    }

    public var kind: Kind
    /// The size in bytes, as the file system reports it.
    public var size: Int
    public var identity: Identity
    /// The user ID of the file's owner.
    public var owner: UInt32
    /// The permission bits (`0o7777` of `st_mode`).
    public var permissions: UInt32

    public var isRegularFile: Bool { kind == .regular }
    public var isDirectory: Bool { kind == .directory }
    public var isFIFO: Bool { kind == .fifo }

    init(_ info: rp_file_info) {
        kind = Kind(info.kind)
        size = Int(info.size)
        identity = Identity(device: info.device, inode: info.inode)
        owner = info.owner
        permissions = info.permissions
    }

    /// The node at `path`, links followed; the error is the system's message ("No such file or directory").
    public static func following(_ path: String) -> Result<FileNode, FileProblem> {
        var info = rp_file_info()
        guard rp_file_info_at(path, 1, &info) == 0 else { return .failure(FileProblem(errno: errno)) }
        return .success(FileNode(info))
    }

    /// The node at `path` itself, a link not followed.
    public static func itself(_ path: String) -> Result<FileNode, FileProblem> {
        var info = rp_file_info()
        guard rp_file_info_at(path, 0, &info) == 0 else { return .failure(FileProblem(errno: errno)) }
        return .success(FileNode(info))
    }

    /// The node an open descriptor refers to.
    public static func of(descriptor: Int32) -> Result<FileNode, FileProblem> {
        var info = rp_file_info()
        guard rp_file_info_of(descriptor, &info) == 0 else { return .failure(FileProblem(errno: errno)) }
        return .success(FileNode(info))
    }

    /// Whether something is at `path`, links followed (a broken link is nothing).
    public static func exists(_ path: String) -> Bool {
        if case .success = following(path) { true } else { false }
    }
}

/// A failed system call on a file, in words.
public struct FileProblem: Error, Sendable, Equatable, CustomStringConvertible {
    /// The `errno` of the call; 0 for a problem given in words only.
    public var code: Int32
    public var message: String

    public init(errno code: Int32) {
        self.code = code
        self.message = String(cString: strerror(code))
    }

    public init(_ message: String) {
        self.code = 0
        self.message = message
    }

    public var description: String { message }
}
