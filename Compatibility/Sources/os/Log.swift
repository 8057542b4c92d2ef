@_exported import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A log object of Apple's unified logging system (`os_log_t`): a subsystem and a category.
///
/// On iOS the messages go to the system's log store; here every message is one line on standard error, which is
/// where richpush reads the extension's log (`extensionLog`): `Error [com.example.app.nse:images] no image URL`.
/// The level is the message's ``OSLogType`` as Apple's `log` tool names it (`Default`, `Info`, `Debug`, `Error`,
/// `Fault`); the brackets hold the subsystem and category and are left out for ``OSLog/default``. Debug and info
/// messages are written too (iOS keeps them only while someone streams the log: richpush always streams). A
/// message spanning several lines is written on one, its line breaks as `\n`.
public final class OSLog: NSObject, Sendable {
    let subsystem: String
    let category: String
    let enabled: Bool

    /// A log for a subsystem (`"com.example.app.notification-service"`) and a category (`"images"`).
    public init(subsystem: String, category: String) {
        self.subsystem = subsystem
        self.category = category
        self.enabled = true
        super.init()
    }

    private init(subsystem: String, category: String, enabled: Bool) {
        self.subsystem = subsystem
        self.category = category
        self.enabled = enabled
        super.init()
    }

    /// The process's default log: no subsystem, no category.
    public static let `default` = OSLog(subsystem: "", category: "", enabled: true)
    /// A log that writes nothing.
    public static let disabled = OSLog(subsystem: "", category: "", enabled: false)

    /// The prefix of every line this log writes: the level, then `[subsystem:category]` when there is one.
    func prefix(_ type: OSLogType) -> String {
        guard !subsystem.isEmpty || !category.isEmpty else { return type.name }
        return "\(type.name) [\(subsystem):\(category)]"
    }
}

/// How important a message is (`os_log_type_t`).
public struct OSLogType: RawRepresentable, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public init(_ rawValue: UInt8) { self.rawValue = rawValue }

    /// `OS_LOG_TYPE_DEFAULT`: what `Logger.notice` and `Logger.log` write.
    public static let `default` = OSLogType(rawValue: 0x00)
    /// `OS_LOG_TYPE_INFO`.
    public static let info = OSLogType(rawValue: 0x01)
    /// `OS_LOG_TYPE_DEBUG`: also `Logger.trace`.
    public static let debug = OSLogType(rawValue: 0x02)
    /// `OS_LOG_TYPE_ERROR`: also `Logger.warning`.
    public static let error = OSLogType(rawValue: 0x10)
    /// `OS_LOG_TYPE_FAULT`: also `Logger.critical`.
    public static let fault = OSLogType(rawValue: 0x11)

    /// The type as Apple's `log` tool shows it.
    var name: String {
        switch self {
        case .info: "Info"
        case .debug: "Debug"
        case .error: "Error"
        case .fault: "Fault"
        default: "Default"
        }
    }
}

/// Whether messages of a type are written to a log: always, but for ``OSLog/disabled``.
public func os_log_type_enabled(_ oslog: OSLog, _ type: OSLogType) -> Bool { oslog.enabled }

/// Writes a message in a printf format to a log, as Apple's `os_log` (iOS 10).
///
/// The format takes Apple's annotations between `%` and the conversion: `%{public}@`, `%{private}s`,
/// `%{public, bool}d`, `%{BOOL}d`, `%{errno}d`. Private and sensitive values are written as they are: richpush is a
/// testing tool and shows what the extension logged (iOS shows `<private>` unless a debugger is attached).
/// `%@` writes an object's description; an argument missing for a conversion is written as Apple writes it,
/// `<decode: missing data>`.
///
/// The arguments are `Any` rather than `CVarArg`, so that the objects iOS code passes for `%@` (`error as NSError`,
/// an `NSNumber`, `url as NSURL`) compile: Linux's `NSObject` is not a `CVarArg`.
public func os_log(
    _ message: StaticString, dso: UnsafeRawPointer? = #dsohandle, log: OSLog = .default, type: OSLogType = .default,
    _ args: Any...
) {
    guard log.enabled else { return }
    LogOutput.write(log.prefix(type), PrintfFormat.format(message.description, args))
}

/// `os_log` with the type first (iOS 12): `os_log(.error, log: log, "failed: %{public}@", reason)`.
public func os_log(
    _ type: OSLogType, dso: UnsafeRawPointer? = #dsohandle, log: OSLog = .default, _ message: StaticString,
    _ args: Any...
) {
    guard log.enabled else { return }
    LogOutput.write(log.prefix(type), PrintfFormat.format(message.description, args))
}

/// `os_log` with an interpolated message (iOS 14), as ``Logger`` takes it: `os_log("got \(count) bytes")`.
@_disfavoredOverload
public func os_log(
    _ message: OSLogMessage, dso: UnsafeRawPointer? = #dsohandle, log: OSLog = .default, type: OSLogType = .default
) {
    guard log.enabled else { return }
    LogOutput.write(log.prefix(type), message.text)
}

/// `os_log` with the type first and an interpolated message (iOS 14).
@_disfavoredOverload
public func os_log(
    _ type: OSLogType, dso: UnsafeRawPointer? = #dsohandle, log: OSLog = .default, _ message: OSLogMessage
) {
    guard log.enabled else { return }
    LogOutput.write(log.prefix(type), message.text)
}

/// Where log lines go: standard error, one `write` each so lines from several threads do not mix; tests can catch
/// them instead.
enum LogOutput {
    private static let capture = NSLock()
    nonisolated(unsafe) private static var captured: [String]?

    static func write(_ prefix: String, _ message: String) {
        let flat = message.replacingOccurrences(of: "\r\n", with: "\\n")
            .replacingOccurrences(of: "\n", with: "\\n")
            .replacingOccurrences(of: "\r", with: "\\n")
        let line = prefix + " " + flat
        capture.lock()
        if captured != nil {
            captured!.append(line)
            capture.unlock()
            return
        }
        capture.unlock()
        var bytes = Array((line + "\n").utf8)
        bytes.withUnsafeMutableBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(STDERR_FILENO, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return
                }
                offset += written
            }
        }
    }

    /// Runs `body` with the lines it logs kept instead of written, and returns them.
    static func capturing(_ body: () throws -> Void) rethrows -> [String] {
        capture.lock()
        captured = []
        capture.unlock()
        defer {
            capture.lock()
            captured = nil
            capture.unlock()
        }
        try body()
        capture.lock()
        defer { capture.unlock() }
        return captured ?? []
    }
}
