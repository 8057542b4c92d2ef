public import Foundation

/// Maps a request path to a file under the fixture root, refusing anything that could leave it.
///
/// Rules, checked in order on the percent-decoded path:
/// - bad percent-encoding, NUL bytes or backslashes → ``Resolution/forbidden(_:)``;
/// - a `..` or `.` segment (also when written `%2e%2e`) → ``Resolution/forbidden(_:)``;
/// - empty segments are dropped, so `//etc/passwd` or an encoded absolute path `%2Fetc%2Fpasswd` is looked up
///   *inside* the root (and normally not found);
/// - the candidate's real path (symlinks resolved) must still be inside the root's real path, else
///   ``Resolution/forbidden(_:)``;
/// - it must be an existing regular file, else ``Resolution/notFound(_:)``.
public struct FixtureFileResolver: Sendable {
    public enum Resolution: Sendable, Equatable {
        case file(URL)
        case notFound(String)
        case forbidden(String)
    }

    /// The root, with symlinks resolved.
    public let root: URL

    /// Fails when the root is missing, not a directory, or unreadable.
    public init(root: URL) throws(FixtureRootError) {
        let resolved = root.standardizedFileURL.resolvingSymlinksInPath()
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: resolved.path, isDirectory: &isDirectory) else {
            throw FixtureRootError("fixture root \(root.path) does not exist")
        }
        guard isDirectory.boolValue else { throw FixtureRootError("fixture root \(root.path) is not a directory") }
        guard FileManager.default.isReadableFile(atPath: resolved.path),
            (try? FileManager.default.contentsOfDirectory(atPath: resolved.path)) != nil
        else { throw FixtureRootError("fixture root \(root.path) is not readable") }
        self.root = resolved
    }

    /// Resolves a raw (still percent-encoded) request path such as `/cat.png` or `/a%20b/c.gif`.
    public func resolve(rawPath: String) -> Resolution {
        guard let decoded = rawPath.removingPercentEncoding else { return .forbidden("bad percent-encoding in path") }
        if decoded.contains("\0") || decoded.contains("\\") { return .forbidden("forbidden character in path") }
        let segments = decoded.split(separator: "/", omittingEmptySubsequences: true)
        if segments.contains(where: { $0 == ".." || $0 == "." }) {
            return .forbidden("path segments . and .. are not served")
        }
        guard !segments.isEmpty else { return .notFound("no file named in the path") }

        var candidate = root
        for segment in segments { candidate.appendPathComponent(String(segment), isDirectory: false) }
        let real = candidate.resolvingSymlinksInPath()
        let rootPath = root.path.hasSuffix("/") ? root.path : root.path + "/"
        guard real.path.hasPrefix(rootPath) else { return .forbidden("the path leads outside the fixture root") }

        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: real.path, isDirectory: &isDirectory), !isDirectory.boolValue
        else { return .notFound("no fixture file \(segments.joined(separator: "/"))") }
        return .file(real)
    }
}

/// The fixture root cannot be served.
public struct FixtureRootError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
