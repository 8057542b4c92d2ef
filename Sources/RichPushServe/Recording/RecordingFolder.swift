import Foundation
import RichPushFiles

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A folder recordings are written into, held open by descriptor, where nothing that exists is ever replaced.
///
/// Each file is written to a temporary file in the folder (unnamed, `O_TMPFILE`, or else a new name created with
/// `O_CREAT|O_EXCL|O_NOFOLLOW`), then `link(2)`ed to its name, which fails when anything is there (a file, a FIFO,
/// a symbolic link, even a dangling one): nothing is opened, followed, truncated or replaced, and a reader never
/// sees half a file. The temporary file is gone whatever happens. Recordings may hold what a backend sends its
/// users, so files are made 0600 and folders 0700, and a folder that exists is used only when it is the user's
/// and no one else can write in it (someone who can could swap the recordings a CI replays). Subfolders (`rejected/`, `images/`) are opened with `O_NOFOLLOW`, so a
/// symbolic link put in their place cannot lead the writes out of the folder.
public final class RecordingFolder: Sendable {
    /// The folder as the user named it (or its parent's path and the subfolder's name), for messages.
    public let path: String
    private let descriptor: Int32
    /// Whether files start unnamed (`O_TMPFILE`) where the system allows; false always names them (for tests of
    /// the other way).
    let startsUnnamed: Bool

    private init(path: String, descriptor: Int32, startsUnnamed: Bool) {
        self.path = path
        self.descriptor = descriptor
        self.startsUnnamed = startsUnnamed
    }

    deinit { close(descriptor) }

    /// Opens `path`, creating it (not its parents) when missing, and checks that a file can be made in it.
    public static func prepare(_ path: String, startsUnnamed: Bool = true) throws(RecordingFolderError)
        -> RecordingFolder
    {
        if mkdir(path, 0o700) != 0, errno != EEXIST {
            throw RecordingFolderError(path: path, reason: "cannot create it: \(describe(errno))")
        }
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let reason = errno == ENOTDIR ? "it is not a folder" : describe(errno)
            throw RecordingFolderError(path: path, reason: reason)
        }
        let folder = RecordingFolder(path: path, descriptor: descriptor, startsUnnamed: startsUnnamed)
        try folder.checkOwnership()
        try folder.checkWritable()
        return folder
    }

    /// The subfolder `name`, created when missing; a symbolic link or anything but a folder there is refused.
    public func subfolder(_ name: String) throws(RecordingFolderError) -> RecordingFolder {
        let shown = (path as NSString).appendingPathComponent(name)
        if mkdirat(descriptor, name, 0o700) != 0, errno != EEXIST {
            throw RecordingFolderError(path: shown, reason: "cannot create it: \(Self.describe(errno))")
        }
        let child = openat(descriptor, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard child >= 0 else {
            let reason =
                errno == ELOOP || errno == ENOTDIR
                ? "it is not a folder (a symbolic link or a file is there; recordings never follow one)"
                : Self.describe(errno)
            throw RecordingFolderError(path: shown, reason: reason)
        }
        let folder = RecordingFolder(path: shown, descriptor: child, startsUnnamed: startsUnnamed)
        try folder.checkOwnership()
        try folder.checkWritable()
        return folder
    }

    /// The folder is the user's and only the user can write in it.
    private func checkOwnership() throws(RecordingFolderError) {
        let node: FileNode
        switch FileNode.of(descriptor: descriptor) {
        case .success(let found): node = found
        case .failure(let problem): throw RecordingFolderError(path: path, reason: problem.message)
        }
        if node.owner != geteuid() {
            throw RecordingFolderError(
                path: path, reason: "it belongs to another user (uid \(node.owner)); record into a folder of your own")
        }
        if node.permissions & 0o022 != 0 {
            let mode = String(node.permissions, radix: 8)
            throw RecordingFolderError(
                path: path,
                reason: "others can write in it (mode \(mode)); record into a folder only you can write (chmod go-w)")
        }
    }

    /// The bytes of the regular file `name` here, up to `limit`; nil when there is none. A symbolic link is not
    /// followed, and a file that is not the user's is refused.
    public func contents(of name: String, limit: Int) -> Result<[UInt8]?, WriteFailure> {
        let handle = openat(descriptor, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)
        guard handle >= 0 else {
            return errno == ENOENT ? .success(nil) : .failure(WriteFailure(path: fullPath(name), code: errno))
        }
        defer { close(handle) }
        switch FileNode.of(descriptor: handle) {
        case .failure(let problem): return .failure(WriteFailure(path: fullPath(name), code: problem.code))
        case .success(let node) where !node.isRegularFile || node.owner != geteuid():
            return .failure(WriteFailure(path: fullPath(name), code: EPERM))
        case .success: break
        }
        var bytes = [UInt8](repeating: 0, count: limit)
        var count = 0
        while count < limit {
            let got = bytes.withUnsafeMutableBytes { buffer in
                read(handle, buffer.baseAddress! + count, limit - count)
            }
            if got < 0, errno == EINTR { continue }
            guard got >= 0 else { return .failure(WriteFailure(path: fullPath(name), code: errno)) }
            if got == 0 { break }
            count += got
        }
        return .success(Array(bytes.prefix(count)))
    }

    /// A file can be created here (a read-only folder, or one the user may not write, fails at start, not at the
    /// first push).
    private func checkWritable() throws(RecordingFolderError) {
        switch temporaryFile(for: "check") {
        case .success(let file):
            close(file.handle)
            if let name = file.name { unlinkat(descriptor, name, 0) }
        case .failure(let error):
            throw RecordingFolderError(path: path, reason: "cannot write in it: \(Self.describe(error.code))")
        }
    }

    /// What went wrong writing one file: its path and the system's reason.
    public struct WriteFailure: Error, Sendable, Equatable {
        public var path: String
        public var code: Int32
        public var reason: String { RecordingFolder.describe(code) }
    }

    /// Writes the files of one recording under the first free name of `candidates(attempt)` (attempt 0, 1, …):
    /// `files` are suffixes (`.json`, `.expect.json`) with their bytes, linked in the order given, so with the
    /// expectation first a payload never appears without it. A name any of whose files exists is passed over.
    /// Returns the name used.
    public func write(
        _ files: [(suffix: String, bytes: [UInt8])], names candidate: (Int) -> String, maxAttempts: Int = 1000
    ) -> Result<String, WriteFailure> {
        var temporary: [TemporaryFile] = []
        var committed = false
        defer {
            for file in temporary {
                close(file.handle)
                // Until every file has its name, the names this call gave are its own to take back.
                if !committed, let name = file.name { unlinkat(descriptor, name, 0) }
            }
        }
        for file in files {
            switch temporaryFile(for: file.suffix) {
            case .failure(let error): return .failure(error)
            case .success(let made):
                temporary.append(made)
                if let code = FileDescriptorWriter.writeAll(file.bytes, to: made.handle) {
                    return .failure(WriteFailure(path: fullPath(candidate(0) + file.suffix), code: code))
                }
            }
        }
        attempts: for attempt in 0..<maxAttempts {
            let base = candidate(attempt)
            for index in temporary.indices {
                let final = base + files[index].suffix
                guard temporary[index].link(from: descriptor, as: final) else {
                    // Taken: the next name is tried; files already named in this attempt are named again there.
                    if errno == EEXIST { continue attempts }
                    return .failure(WriteFailure(path: fullPath(final), code: errno))
                }
            }
            committed = true
            return .success(base)
        }
        return .failure(WriteFailure(path: fullPath(candidate(0) + (files.first?.suffix ?? "")), code: EEXIST))
    }

    /// A file being written: unnamed at first where the file system can (`O_TMPFILE`, which no crash can leave
    /// behind and no one else can see), else under a temporary name only this process opened; then under the
    /// name it is linked to.
    struct TemporaryFile {
        let handle: Int32
        /// Its one name in the folder, nil while it has none.
        var name: String?

        /// Gives the file the name `final` in the folder, in place of the one it had; false (with `errno` set)
        /// when anything is there.
        mutating func link(from folder: Int32, as final: String) -> Bool {
            if let name {
                guard linkat(folder, name, folder, final, 0) == 0 else { return false }
                unlinkat(folder, name, 0)
            } else {
                // An unnamed file is named through its descriptor's /proc link (AT_EMPTY_PATH would need
                // CAP_DAC_READ_SEARCH); it can be named this way once only, so later names link from that one.
                guard linkat(AT_FDCWD, "/proc/self/fd/\(handle)", folder, final, AT_SYMLINK_FOLLOW) == 0 else {
                    return false
                }
            }
            name = final
            return true
        }
    }

    /// Whether `name` exists here (of any kind; a symbolic link is not followed).
    public func contains(_ name: String) -> Bool {
        faccessat(descriptor, name, F_OK, AT_SYMLINK_NOFOLLOW) == 0
    }

    public func fullPath(_ name: String) -> String { (path as NSString).appendingPathComponent(name) }

    /// A new file no one else has: unnamed where the file system can (`O_TMPFILE`, if /proc is there to name it
    /// later), else `.richpush-RANDOM<suffix>.tmp`, exclusive and never through a symbolic link.
    private func temporaryFile(for suffix: String) -> Result<TemporaryFile, WriteFailure> {
        if startsUnnamed, Self.procIsMounted {
            let unnamed = openat(descriptor, ".", O_WRONLY | O_CLOEXEC | Self.unnamedFileFlag, 0o600)
            if unnamed >= 0 { return .success(TemporaryFile(handle: unnamed, name: nil)) }
        }
        for _ in 0..<16 {
            let name = ".richpush-\(UInt64.random(in: 0...UInt64.max))\(suffix).tmp"
            let handle = openat(
                descriptor, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY, 0o600)
            if handle >= 0 { return .success(TemporaryFile(handle: handle, name: name)) }
            if errno != EEXIST { return .failure(WriteFailure(path: fullPath(name), code: errno)) }
        }
        return .failure(WriteFailure(path: fullPath(".richpush-*.tmp"), code: EEXIST))
    }

    /// Linux's O_TMPFILE (`__O_TMPFILE | O_DIRECTORY`), which Swift does not import as a constant.
    static let unnamedFileFlag: Int32 = 0o20_000_000 | O_DIRECTORY
    static let procIsMounted = access("/proc/self/fd", F_OK) == 0

    /// `No space left on device (ENOSPC)`.
    public static func describe(_ code: Int32) -> String {
        let names: [Int32: String] = [
            ENOSPC: "ENOSPC", EACCES: "EACCES", EPERM: "EPERM", EROFS: "EROFS", EEXIST: "EEXIST", ENOENT: "ENOENT",
            ENOTDIR: "ENOTDIR", ELOOP: "ELOOP", EDQUOT: "EDQUOT", EIO: "EIO", EMLINK: "EMLINK",
        ]
        let text = FileDescriptorWriter.describe(code)
        return names[code].map { "\(text) (\($0))" } ?? text
    }
}

/// Why a recording folder cannot be used: its path and the reason.
public struct RecordingFolderError: Error, Sendable, Equatable, CustomStringConvertible {
    public var path: String
    public var reason: String
    public var description: String { "\(path): \(reason)" }
}
