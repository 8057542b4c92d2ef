import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// What the system learns from inside an extension's process when it runs under richpush (`--extension`): one
/// JSON object per line on the descriptor `RICHPUSH_EVENTS_FD`. Outside richpush there is no such descriptor and
/// nothing is written.
///
/// iOS sees an attachment the extension failed to create (the error is the extension's to handle, and extensions
/// often drop it with `try?`); richpush reports it by name in the notification's timeline.
public enum RichPushHostChannel {
    private static let lock = NSLock()
    private static let descriptor: Int32? = ProcessInfo.processInfo.environment["RICHPUSH_EVENTS_FD"].flatMap {
        Int32($0)
    }

    /// Writes `object` as one line, whole; false when there is no channel or it is closed.
    @discardableResult
    public static func send(_ object: [String: Any]) -> Bool {
        guard let descriptor,
            var data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        else { return false }
        data.append(0x0A)
        lock.lock()
        defer { lock.unlock() }
        return data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += written
            }
            return true
        }
    }
}
