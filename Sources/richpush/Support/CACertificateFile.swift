import Foundation
import RichPushFiles

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a server's CA certificate goes, for `curl --cacert` and client libraries: the `--ca-out` file, or a new
/// temporary file that is removed when the command ends. The same for `serve`, `serve-fixtures` and the
/// notification center's endpoint.
enum CACertificateFile {
    /// Whose temporary CA a folder holds: `richpush-serve-ca-<pid>-<random>/ca.pem` and the like.
    enum Server: String, CaseIterable {
        case serve
        case fixtures = "fixture"
        case notificationCenter = "tui"

        var folderPrefix: String { "richpush-\(rawValue)-ca" }
    }

    /// The `--ca-out` file, checked before any server starts, without touching what it holds.
    static func check(_ path: String?, command: String) throws(CommandFailure) -> OutputFile? {
        do {
            return try path.map { path throws(OutputFile.Failure) in try OutputFile(checking: path) }
        } catch {
            throw .io("\(command): cannot write the CA certificate to \(error.path): \(error.reason)")
        }
    }

    /// Writes `pem` to `file`, or to `ca.pem` in a new temporary folder of `server`'s whose removal is a part of the
    /// command (it goes when the command ends); returns the path written.
    ///
    /// The folder is an ``OwnedFolder``: a command killed before its end (SIGKILL) cannot remove it, and the next
    /// command that writes a temporary CA removes it, whichever server's it was; a running command's is left alone.
    /// The folder can be read by all, as the file could before: a CA certificate is no secret.
    static func write(
        _ pem: String, to file: OutputFile?, temporaryFor server: Server, parts: CommandLifecycle.Parts
    ) throws(OutputFile.Failure) -> String {
        if let file {
            try file.write(pem)
            return file.path
        }
        let parent = FileManager.default.temporaryDirectory.path
        // Making the folder removes the abandoned ones of its kind; the others' go here.
        for other in Server.allCases where other != server {
            OwnedFolder.removeAbandoned(prefix: other.folderPrefix, in: parent)
        }
        let folder: OwnedFolder
        do {
            folder = try OwnedFolder(prefix: server.folderPrefix, in: parent)
        } catch {
            throw OutputFile.Failure(path: parent, reason: error.description)
        }
        chmod(folder.path, 0o755)
        let path = folder.path + "/ca.pem"
        do {
            try OutputFile.createNew(path, text: pem)
        } catch {
            try? FileManager.default.removeItem(atPath: folder.path)
            throw error
        }
        // The folder, and the lock that keeps the next command from taking it for abandoned, stay until the end.
        parts.add(ShutdownAction { try? FileManager.default.removeItem(atPath: folder.path) })
        return path
    }
}
