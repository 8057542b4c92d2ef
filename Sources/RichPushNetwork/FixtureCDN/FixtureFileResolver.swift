public import Foundation
import NIOCore
import RichPushFiles

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Maps a request path to a file under the fixture root, refusing anything that could leave it.
///
/// Rules, checked in order on the percent-decoded path:
/// - bad percent-encoding, NUL bytes or backslashes → ``Resolution/forbidden(_:)``;
/// - a `..` or `.` segment (also when written `%2e%2e`) → ``Resolution/forbidden(_:)``;
/// - empty segments are dropped, so `//etc/passwd` or an encoded absolute path `%2Fetc%2Fpasswd` is looked up
///   *inside* the root (and normally not found);
/// - the candidate's real path (symlinks resolved) must still be inside the root's real path, else
///   ``Resolution/forbidden(_:)``;
/// - it must exist and not be a directory, else ``Resolution/notFound(_:)``;
/// - it must be a regular file: a FIFO, socket or device (which could block or never end) is
///   ``Resolution/forbidden(_:)``, with a message naming what it is.
public struct FixtureFileResolver: Sendable {
    public enum Resolution: Sendable, Equatable {
        case file(URL)
        case notFound(String)
        case forbidden(String)
    }

    /// The root, with symlinks resolved.
    public let root: URL
    /// The root's real path with a trailing slash.
    private let rootPath: String

    /// Fails when the root is missing, not a directory, or unreadable.
    public init(root: URL) throws(FixtureRootError) {
        let resolved = root.standardizedFileURL.resolvingSymlinksInPath()
        guard case .success(let node) = FileNode.following(resolved.path) else {
            throw FixtureRootError("fixture root \(root.path) does not exist")
        }
        guard node.isDirectory else { throw FixtureRootError("fixture root \(root.path) is not a directory") }
        guard FileManager.default.isReadableFile(atPath: resolved.path),
            (try? FileManager.default.contentsOfDirectory(atPath: resolved.path)) != nil
        else { throw FixtureRootError("fixture root \(root.path) is not readable") }
        self.root = resolved
        // The same resolution the candidates get, so a root behind a symlink compares equal.
        let real = Self.realPath(resolved.path) ?? resolved.path
        self.rootPath = real.hasSuffix("/") ? real : real + "/"
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Further roots served as one with this one, looked in first: recordings' `given.fixtures` folders, whose
    /// images are named by their content hash, so one name is one image whichever folder holds it.
    public var recordedRoots: [FixtureFileResolver] = []

    /// Resolves a raw (still percent-encoded) request path such as `/cat.png` or `/a%20b/c.gif`.
    public func resolve(rawPath: String) -> Resolution {
        for recorded in recordedRoots {
            if case .file(let url) = recorded.resolve(rawPath: rawPath) { return .file(url) }
        }
        return resolveInRoot(rawPath: rawPath)
    }

    private func resolveInRoot(rawPath: String) -> Resolution {
        guard let decoded = rawPath.removingPercentEncoding else { return .forbidden("bad percent-encoding in path") }
        if decoded.contains("\0") || decoded.contains("\\") { return .forbidden("forbidden character in path") }
        let segments = decoded.split(separator: "/", omittingEmptySubsequences: true)
        if segments.contains(where: { $0 == ".." || $0 == "." }) {
            return .forbidden("path segments . and .. are not served")
        }
        guard !segments.isEmpty else { return .notFound("no file named in the path") }

        let name = segments.joined(separator: "/")
        // realpath(3) resolves every symlink (it fails on a missing file, a broken link or a loop: not found).
        guard let real = Self.realPath(rootPath + name) else { return .notFound("no fixture file \(name)") }
        guard real.hasPrefix(rootPath) else { return .forbidden("the path leads outside the fixture root") }

        // stat, not open: opening a FIFO blocks until a writer comes.
        guard case .success(let node) = FileNode.following(real) else { return .notFound("no fixture file \(name)") }
        switch node.kind {
        case .regular: return .file(URL(fileURLWithPath: real, isDirectory: false))
        case .directory: return .notFound("no fixture file \(name) (it is a directory)")
        default:
            return .forbidden("\(name) is \(node.kind.phrase), not a regular file; only regular files are served")
        }
    }
}

/// A fixture file opened for a response: a regular file, checked on the open descriptor itself. The descriptor
/// closes when the last reference goes (after the body is sent, or with a response dropped unsent, e.g. for HEAD).
final class OpenedFixture: Sendable {
    struct Problem: Error {
        var message: String
    }

    private let descriptor: Int32
    let size: Int

    private init(descriptor: Int32, size: Int) {
        self.descriptor = descriptor
        self.size = size
    }

    deinit { close(descriptor) }

    /// Opens `file` without blocking and without following a final symlink (the resolver already resolved them;
    /// one appearing now means the file was swapped), then refuses anything but a regular file. The resolver
    /// checks the type first; this check is on what was really opened.
    static func opening(_ file: URL) -> Result<OpenedFixture, Problem> {
        let descriptor = file.withUnsafeFileSystemRepresentation { path in
            path.map { open($0, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOFOLLOW) } ?? -1
        }
        guard descriptor >= 0 else {
            return .failure(Problem(message: "the fixture file cannot be read (\(String(cString: strerror(errno))))"))
        }
        let node: FileNode
        switch FileNode.of(descriptor: descriptor) {
        case .success(let opened): node = opened
        case .failure(let problem):
            close(descriptor)
            return .failure(Problem(message: "the fixture file cannot be read (\(problem))"))
        }
        guard node.isRegularFile else {
            close(descriptor)
            return .failure(
                Problem(
                    message: "the fixture is \(node.kind.phrase), not a regular file; only regular files are served"))
        }
        return .success(OpenedFixture(descriptor: descriptor, size: node.size))
    }

    /// Appends up to `count` bytes read at `offset` to `buffer`; returns how many (0 at the end of the file).
    func read(into buffer: inout ByteBuffer, at offset: Int, count: Int) throws -> Int {
        let descriptor = descriptor
        return try buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: count) { bytes in
            while true {
                let result = pread(descriptor, bytes.baseAddress, count, off_t(offset))
                if result >= 0 { return result }
                if errno == EINTR { continue }
                throw Problem(message: "reading the fixture failed: \(String(cString: strerror(errno)))")
            }
        }
    }
}

/// The fixture root cannot be served.
public struct FixtureRootError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
