import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A process's own memory, as close to iOS's "footprint" as Linux tells it cheaply: its resident memory that is
/// not backed by files (`/proc/PID/statm`: resident minus shared pages), i.e. heap, stacks and written data, not
/// the shared libraries it maps. `statm` is a pair of counters; `smaps_rollup`'s `Private_Dirty` says nearly the
/// same but walks every page table, which cost a fifth of the processor time of 200 extensions polled every 20 ms.
enum MemoryFootprint {
    static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

    /// Bytes of `pid`'s resident memory not backed by files; nil when the process is gone.
    static func bytes(of pid: pid_t) -> Int? {
        let descriptor = open("/proc/\(pid)/statm", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 128)
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        return bytes(inStatm: String(decoding: buffer[0..<count], as: UTF8.self))
    }

    /// `size resident shared text lib data dirty`, in pages: (resident − shared) in bytes.
    static func bytes(inStatm text: String) -> Int? {
        let fields = text.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        guard fields.count >= 3 else { return nil }
        return max(0, fields[1] - fields[2]) * pageSize
    }
}
