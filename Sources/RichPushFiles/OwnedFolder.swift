internal import CFileInfo
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A temporary folder that belongs to this process for as long as it runs: `<parent>/<prefix>-<pid>-<random>`,
/// mode 0700, whose `.owner` file the process holds an exclusive `flock(2)` on.
///
/// A process killed before its end (SIGKILL, a crash) cannot remove its folders. The kernel releases the lock when
/// its process ends, however it ends, and a lock is seen from every PID namespace, where a process ID would not be;
/// so ``removeAbandoned(prefix:in:)`` removes the folders whose lock nobody holds. The lock file is created and
/// locked under a name of its own, then renamed to `.owner`: a folder seen with that file is already locked.
public final class OwnedFolder: Sendable {
    /// The folder's path, in one spelling (no `//` or `.` from a TMPDIR written so): paths of files in it can be
    /// compared to it.
    public let path: String
    /// The folders left behind by killed processes that making this one removed (``removeAbandoned(prefix:in:)``).
    public let removedAbandoned: [String]
    /// The descriptor the lock is held on; -1 where the file system has no locks (such a folder is never taken
    /// for abandoned).
    private let lock: Int32

    /// The name of the file the owner holds its lock on.
    public static let lockFileName = ".owner"

    /// Removes the folders with `prefix` in `parent` that killed processes left behind, then makes a new one and
    /// takes its lock. The error is the system's ("Not a directory").
    public init(prefix: String, in parent: String) throws(FileProblem) {
        let base = URL(fileURLWithPath: parent).standardizedFileURL.path
        removedAbandoned = Self.removeAbandoned(prefix: prefix, in: base)
        var path = ""
        while true {
            let random = String(UInt64.random(in: 0...UInt64.max), radix: 36)
            path = base == "/" ? "/\(prefix)-\(getpid())-\(random)" : "\(base)/\(prefix)-\(getpid())-\(random)"
            if mkdir(path, 0o700) == 0 { break }
            guard errno == EEXIST else { throw FileProblem(errno: errno) }
        }
        self.path = path
        self.lock = Self.takeLock(in: path)
    }

    deinit {
        if lock >= 0 { close(lock) }
    }

    private static func takeLock(in folder: String) -> Int32 {
        let locking = "\(folder)/.owner-\(String(UInt64.random(in: 0...UInt64.max), radix: 36))"
        let descriptor = open(locking, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return -1 }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0,
            rp_rename_noreplace(locking, "\(folder)/\(lockFileName)") == 0
        else {
            unlink(locking)
            close(descriptor)
            return -1
        }
        return descriptor
    }

    /// Removes the folders in `parent` made with `prefix` that their process left behind: named as
    /// ``init(prefix:in:)`` names them, owned by this user, whose lock file nobody holds a lock on. Anything else is
    /// left alone: a folder whose process runs, a link, another user's folder, a folder without a lock file (made
    /// by an older richpush, or by someone else), a lock file that is not a regular file. Returns the paths removed.
    @discardableResult
    public static func removeAbandoned(prefix: String, in parent: String) -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: parent) else { return [] }
        var removed: [String] = []
        for name in names where isOwnedName(name, prefix: prefix) {
            let path = "\(parent)/\(name)"
            guard case .success(let folder) = FileNode.itself(path), folder.isDirectory, folder.owner == geteuid()
            else { continue }
            // Only a regular file is opened (a device may act on an open), and only the one looked at.
            let lockPath = "\(path)/\(lockFileName)"
            guard case .success(let lockFile) = FileNode.itself(lockPath), lockFile.isRegularFile else { continue }
            let descriptor = open(lockPath, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
            guard descriptor >= 0 else { continue }
            defer { close(descriptor) }
            guard case .success(let opened) = FileNode.of(descriptor: descriptor),
                opened.identity == lockFile.identity, flock(descriptor, LOCK_EX | LOCK_NB) == 0
            else { continue }
            if (try? FileManager.default.removeItem(atPath: path)) != nil { removed.append(path) }
        }
        return removed
    }

    /// `<prefix>-<digits>-<lowercase letters and digits>`.
    private static func isOwnedName(_ name: String, prefix: String) -> Bool {
        guard name.hasPrefix(prefix + "-") else { return false }
        let parts = name.dropFirst(prefix.count + 1).split(separator: "-", omittingEmptySubsequences: false)
        return parts.count == 2 && !parts[0].isEmpty && parts[0].allSatisfy { $0.isASCII && $0.isNumber }
            && !parts[1].isEmpty && parts[1].allSatisfy { $0.isASCII && ($0.isNumber || $0.isLowercase) }
    }
}
