import Foundation
import RichPushFiles

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a file of a project (the project file, an Info.plist, a Podfile) only when it is a regular file of at most
/// a given size. The file is opened without blocking and checked through the open descriptor, so a FIFO named
/// `project.pbxproj` is refused rather than waited on, and a file swapped after a check is never read as another.
enum BoundedFile {
    /// The bytes of `path`, or why not in words ("a FIFO (named pipe), not a file", "Too many levels of symbolic
    /// links", "12 MB, more than 8 MB").
    static func read(_ path: String, limit: Int) -> Result<[UInt8], FileProblem> {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return .failure(FileProblem(errno: errno)) }
        defer { close(descriptor) }
        let node: FileNode
        switch FileNode.of(descriptor: descriptor) {
        case .success(let found): node = found
        case .failure(let problem): return .failure(problem)
        }
        guard node.isRegularFile else { return .failure(FileProblem("\(node.kind.phrase), not a file")) }
        guard node.size <= limit else {
            return .failure(FileProblem("\(Self.size(node.size)), more than \(Self.size(limit))"))
        }
        var bytes = [UInt8](repeating: 0, count: min(node.size, limit) + 1)
        var filled = 0
        while filled < bytes.count {
            let count = bytes.withUnsafeMutableBytes { buffer in
                systemRead(descriptor, buffer.baseAddress! + filled, buffer.count - filled)
            }
            if count < 0 {
                if errno == EINTR { continue }
                return .failure(FileProblem(errno: errno))
            }
            if count == 0 { break }
            filled += count
        }
        // The file grew between fstat and read: still no more than the limit.
        guard filled <= limit else {
            return .failure(FileProblem("more than \(Self.size(limit))"))
        }
        bytes.removeSubrange(filled...)
        return .success(bytes)
    }

    private static func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
            Glibc.read(descriptor, buffer, count)
        #else
            Darwin.read(descriptor, buffer, count)
        #endif
    }

    private static func size(_ bytes: Int) -> String {
        bytes >= 1 << 20 ? "\(bytes >> 20) MB" : bytes >= 1024 ? "\(bytes >> 10) KB" : "\(bytes) bytes"
    }
}
