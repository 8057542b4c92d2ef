/// Apple's `Logger` (iOS 14): writes interpolated ``OSLogMessage``s to a log, one line each on standard error (see
/// ``OSLog`` for the line and ``OSLogMessage`` for private values).
///
/// Each method writes at the ``OSLogType`` iOS gives it: `trace` and `debug` at `.debug`, `info` at `.info`,
/// `notice` and `log` at `.default`, `warning` and `error` at `.error`, `critical` and `fault` at `.fault`.
public struct Logger: Sendable {
    let log: OSLog

    /// A logger for a subsystem (`"com.example.app.notification-service"`) and a category (`"images"`).
    public init(subsystem: String, category: String) {
        log = OSLog(subsystem: subsystem, category: category)
    }

    /// A logger writing to an existing log object.
    public init(_ logObj: OSLog) {
        log = logObj
    }

    /// A logger writing to the default log.
    public init() {
        log = .default
    }

    /// Writes a message at the default level.
    public func log(_ message: OSLogMessage) { write(.default, message) }
    /// Writes a message at `level`.
    public func log(level: OSLogType, _ message: OSLogMessage) { write(level, message) }
    /// Writes a message at the debug level.
    public func trace(_ message: OSLogMessage) { write(.debug, message) }
    /// Writes a message at the debug level.
    public func debug(_ message: OSLogMessage) { write(.debug, message) }
    /// Writes a message at the info level.
    public func info(_ message: OSLogMessage) { write(.info, message) }
    /// Writes a message at the default level.
    public func notice(_ message: OSLogMessage) { write(.default, message) }
    /// Writes a message at the error level.
    public func warning(_ message: OSLogMessage) { write(.error, message) }
    /// Writes a message at the error level.
    public func error(_ message: OSLogMessage) { write(.error, message) }
    /// Writes a message at the fault level.
    public func critical(_ message: OSLogMessage) { write(.fault, message) }
    /// Writes a message at the fault level.
    public func fault(_ message: OSLogMessage) { write(.fault, message) }

    private func write(_ type: OSLogType, _ message: OSLogMessage) {
        guard log.enabled else { return }
        LogOutput.write(log.prefix(type), message.text)
    }
}
