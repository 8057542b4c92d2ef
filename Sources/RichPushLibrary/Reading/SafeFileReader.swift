import CFileInfo
import RichPushFiles

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

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
