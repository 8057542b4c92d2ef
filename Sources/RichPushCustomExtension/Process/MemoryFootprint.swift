import Foundation

/// A process's own memory, as close to iOS's "footprint" as Linux tells it: its private dirty pages (written
/// memory no other process shares: heap, stacks, written data), from `/proc/PID/smaps_rollup`.
enum MemoryFootprint {
    /// Bytes of private dirty memory of `pid`; nil when the process is gone or the file unreadable.
    static func privateDirtyBytes(of pid: pid_t) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/smaps_rollup", encoding: .utf8) else {
            return nil
        }
        return privateDirtyBytes(inRollup: text)
    }

    /// The `Private_Dirty` line of an smaps_rollup text, in bytes.
    static func privateDirtyBytes(inRollup text: String) -> Int? {
        for line in text.split(separator: "\n") where line.hasPrefix("Private_Dirty:") {
            let digits = line.dropFirst("Private_Dirty:".count).filter(\.isNumber)
            return Int(digits).map { $0 * 1024 }
        }
        return nil
    }
}
