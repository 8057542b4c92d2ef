import Foundation

/// How much Pushwoosh logs (`PUSHWOOSH_LOG_LEVEL`, PushwooshCore/Public/Logging/PushwooshLog.h @ f8c5cc86); Swift keeps
/// the C names.
public enum PUSHWOOSH_LOG_LEVEL: UInt, Sendable {
    case PW_LL_NONE, PW_LL_ERROR, PW_LL_WARN, PW_LL_INFO, PW_LL_DEBUG, PW_LL_VERBOSE
}

/// Sets the log level (`Pushwoosh.debug.setLogLevel(.PW_LL_DEBUG)`).
public protocol PWDebug: NSObjectProtocol {
    static func setLogLevel(_ logLevel: PUSHWOOSH_LOG_LEVEL)
}

/// Pushwoosh's logger: lines at or under the level go to standard error, where richpush shows them in the extension's
/// log. The default level is `PW_LL_INFO`, the SDK's own when `Pushwoosh_LOG_LEVEL` is not set (not confirmed).
open class PushwooshLog: NSObject, PWDebug {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var level = PUSHWOOSH_LOG_LEVEL.PW_LL_INFO
    // nonisolated(unsafe): read and written under `lock` only.

    open class var debug: any PWDebug.Type { PushwooshLog.self }

    open class func setLogLevel(_ logLevel: PUSHWOOSH_LOG_LEVEL) {
        lock.lock()
        defer { lock.unlock() }
        level = logLevel
    }

    /// One line, when `logLevel` is within the level set.
    static func log(_ logLevel: PUSHWOOSH_LOG_LEVEL, _ message: String) {
        lock.lock()
        let shown = logLevel != .PW_LL_NONE && logLevel.rawValue <= level.rawValue
        lock.unlock()
        guard shown else { return }
        let letter =
            switch logLevel {
            case .PW_LL_ERROR: "ERROR"
            case .PW_LL_WARN: "WARNING"
            case .PW_LL_INFO: "INFO"
            default: "DEBUG"
            }
        let line = "[Pushwoosh] \(letter): \(message.replacingOccurrences(of: "\n", with: " "))\n"
        FileHandle.standardError.write(Data(line.utf8))
    }
}
