internal import CFileInfo

#if canImport(Glibc)
    import Glibc
#endif

/// `write(2)` until every byte is out: interrupted writes are resumed, and a descriptor left non-blocking by
/// another program is waited for rather than given up on.
public enum FileDescriptorWriter {
    /// Writes all of `bytes` (``rp_write_all``); returns nil when done, else the `errno` that stopped it.
    public static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Int32? {
        let failure = bytes.withUnsafeBytes { rp_write_all(descriptor, $0.baseAddress, $0.count) }
        return failure == 0 ? nil : failure
    }

    /// The system's text for an `errno` value, e.g. "No space left on device".
    public static func describe(_ failure: Int32) -> String {
        String(cString: strerror(failure))
    }
}
