import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A folder recordings are written into, held open by descriptor, where nothing that exists is ever replaced.
///
/// Each file is written to a temporary file created with `O_CREAT|O_EXCL|O_NOFOLLOW` beside its final name, then
/// `link(2)`ed to that name, which fails when anything is there (a file, a FIFO, a symbolic link, even a dangling
/// one): nothing is opened, followed, truncated or replaced, and a reader never sees half a file. The temporary
/// file is removed whatever happens. Subfolders (`rejected/`, `images/`) are opened with `O_NOFOLLOW`, so a
/// symbolic link put in their place cannot lead the writes out of the folder.
public final class RecordingFolder: Sendable {
    /// The folder as the user named it (or its parent's path and the subfolder's name), for messages.
    public let path: String
    private let descriptor: Int32

    private init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// Opens `path`, creating it (not its parents) when missing, and checks that a file can be made in it.
    public static func prepare(_ path: String) throws(RecordingFolderError) -> RecordingFolder {
        if mkdir(path, 0o755) != 0, errno != EEXIST {
            throw RecordingFolderError(path: path, reason: "cannot create it: \(describe(errno))")
        }
        let descriptor = openDirectory(path)
        guard descriptor >= 0 else {
            let reason = errno == ENOTDIR ? "it is not a folder" : describe(errno)
            throw RecordingFolderError(path: path, reason: reason)
        }
        let folder = RecordingFolder(path: path, descriptor: descriptor)
        try folder.checkWritable()
        return folder
    }

    /// The subfolder `name`, created when missing; a symbolic link or anything but a folder there is refused.
    public func subfolder(_ name: String) throws(RecordingFolderError) -> RecordingFolder {
        let shown = (path as NSString).appendingPathComponent(name)
        if mkdirat(descriptor, name, 0o755) != 0, errno != EEXIST {
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
        let folder = RecordingFolder(path: shown, descriptor: child)
        try folder.checkWritable()
        return folder
    }

    /// A file can be created here (a read-only folder, or one the user may not write, fails at start, not at the
    /// first push).
    private func checkWritable() throws(RecordingFolderError) {
        switch temporaryFile(for: "check") {
        case .success(let (name, file)):
            close(file)
            unlinkat(descriptor, name, 0)
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
        var temporary: [(name: String, suffix: String)] = []
        defer { for file in temporary { unlinkat(descriptor, file.name, 0) } }
        for file in files {
            switch temporaryFile(for: file.suffix) {
            case .failure(let error): return .failure(error)
            case .success(let (name, handle)):
                temporary.append((name, file.suffix))
                if let code = Self.writeAll(file.bytes, to: handle) {
                    close(handle)
                    return .failure(WriteFailure(path: fullPath(candidate(0) + file.suffix), code: code))
                }
                if close(handle) != 0 {
                    return .failure(WriteFailure(path: fullPath(candidate(0) + file.suffix), code: errno))
                }
            }
        }
        attempts: for attempt in 0..<maxAttempts {
            let base = candidate(attempt)
            var linked: [String] = []
            for file in temporary {
                let final = base + file.suffix
                if linkat(descriptor, file.name, descriptor, final, 0) != 0 {
                    let code = errno
                    // Only files this call made are removed: the ones it just linked.
                    for name in linked { unlinkat(descriptor, name, 0) }
                    if code == EEXIST { continue attempts }
                    return .failure(WriteFailure(path: fullPath(final), code: code))
                }
                linked.append(final)
            }
            return .success(base)
        }
        return .failure(WriteFailure(path: fullPath(candidate(0) + (files.first?.suffix ?? "")), code: EEXIST))
    }

    /// Whether `name` exists here (of any kind; a symbolic link is not followed).
    public func contains(_ name: String) -> Bool {
        faccessat(descriptor, name, F_OK, AT_SYMLINK_NOFOLLOW) == 0
    }

    public func fullPath(_ name: String) -> String { (path as NSString).appendingPathComponent(name) }

    /// A new file `.NAME.tmp-RANDOM` no one else has: exclusive, never through a symbolic link.
    private func temporaryFile(for suffix: String) -> Result<(String, Int32), WriteFailure> {
        for _ in 0..<16 {
            let name = ".richpush-\(UInt64.random(in: 0...UInt64.max))\(suffix).tmp"
            let handle = openat(
                descriptor, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY, 0o644)
            if handle >= 0 { return .success((name, handle)) }
            if errno != EEXIST { return .failure(WriteFailure(path: fullPath(name), code: errno)) }
        }
        return .failure(WriteFailure(path: fullPath(".richpush-*.tmp"), code: EEXIST))
    }

    /// Nil when every byte was written, else the error number.
    private static func writeAll(_ bytes: [UInt8], to handle: Int32) -> Int32? {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                writeBytes(handle, buffer.baseAddress! + offset, bytes.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            offset += written
        }
        return nil
    }

    /// `No space left on device (ENOSPC)`.
    public static func describe(_ code: Int32) -> String {
        let names: [Int32: String] = [
            ENOSPC: "ENOSPC", EACCES: "EACCES", EPERM: "EPERM", EROFS: "EROFS", EEXIST: "EEXIST", ENOENT: "ENOENT",
            ENOTDIR: "ENOTDIR", ELOOP: "ELOOP", EDQUOT: "EDQUOT", EIO: "EIO", EMLINK: "EMLINK",
        ]
        let text = String(cString: strerror(code))
        return names[code].map { "\(text) (\($0))" } ?? text
    }
}

/// Why a recording folder cannot be used: its path and the reason.
public struct RecordingFolderError: Error, Sendable, Equatable, CustomStringConvertible {
    public var path: String
    public var reason: String
    public var description: String { "\(path): \(reason)" }
}

// At file scope, where the class's own `write` does not hide the system's.
private func openDirectory(_ path: String) -> Int32 { open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
private func writeBytes(_ handle: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int { write(handle, bytes, count) }
