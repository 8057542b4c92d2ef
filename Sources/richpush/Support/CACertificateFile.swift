#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a server's CA certificate goes, for `curl --cacert` and client libraries: the `--ca-out` file, or a new
/// temporary file that is removed when the command ends. The same for `serve`, `serve-fixtures` and the
/// notification center's endpoint.
enum CACertificateFile {
    /// The `--ca-out` file, checked before any server starts, without touching what it holds.
    static func check(_ path: String?, command: String) throws(CommandFailure) -> OutputFile? {
        do {
            return try path.map { path throws(OutputFile.Failure) in try OutputFile(checking: path) }
        } catch {
            throw .io("\(command): cannot write the CA certificate to \(error.path): \(error.reason)")
        }
    }

    /// Writes `pem` to `file`, or to a new temporary file named `prefix…​.pem` whose removal is a part of the
    /// command (it goes when the command ends); returns the path written.
    static func write(
        _ pem: String, to file: OutputFile?, temporaryPrefix prefix: String, parts: CommandLifecycle.Parts
    ) throws(OutputFile.Failure) -> String {
        if let file {
            try file.write(pem)
            return file.path
        }
        let path = try OutputFile.createTemporary(prefix: prefix, suffix: ".pem", text: pem)
        parts.add(ShutdownAction { unlink(path) })
        return path
    }
}
