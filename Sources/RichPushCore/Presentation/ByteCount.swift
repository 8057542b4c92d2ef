/// Byte counts as people read them: "512 B", "47.1 KB", "10.0 MB" (1 KB = 1024 bytes, as iOS's limits count).
public enum ByteCount {
    public static func text(_ count: Int) -> String {
        if count < 1024 { return "\(count) B" }
        let kilobytes = Double(count) / 1024
        if kilobytes < 1024 { return "\(oneDecimal(kilobytes)) KB" }
        return "\(oneDecimal(kilobytes / 1024)) MB"
    }

    /// A configured size limit: "10 MB" or "512 KB" when it is a whole number of them, else as ``text(_:)``.
    public static func limit(_ count: Int) -> String {
        if count >= 1024 * 1024 && count % (1024 * 1024) == 0 { return "\(count / (1024 * 1024)) MB" }
        if count >= 1024 && count % 1024 == 0 && count < 1024 * 1024 { return "\(count / 1024) KB" }
        return text(count)
    }

    private static func oneDecimal(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}
