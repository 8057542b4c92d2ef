import Foundation

/// Firebase's process-wide settings (`FIRConfiguration`, Swift name `FirebaseConfiguration`): the logger level an
/// extension may set before `FirebaseApp.configure()`. Kept, and nothing more: the vendor modules log their errors
/// whatever the level. FirebaseCore/Sources/Public/FirebaseCore/FIRConfiguration.h @ a1e4be79.
open class FirebaseConfiguration: NSObject, @unchecked Sendable {
    // @unchecked: every access to `level` holds `lock`.
    public static let shared = FirebaseConfiguration()

    private let lock = NSLock()
    private var level = FirebaseLoggerLevel.notice

    open func setLoggerLevel(_ loggerLevel: FirebaseLoggerLevel) {
        lock.lock()
        defer { lock.unlock() }
        level = loggerLevel
    }

    open func loggerLevel() -> FirebaseLoggerLevel {
        lock.lock()
        defer { lock.unlock() }
        return level
    }
}

/// Firebase's log levels (`FIRLoggerLevel`, Swift name `FirebaseLoggerLevel`), with its raw values (the ASL levels).
/// FirebaseCore/Sources/Public/FirebaseCore/FIRLoggerLevel.h @ 28ff0c7f.
public enum FirebaseLoggerLevel: Int, Sendable {
    case error = 3
    case warning = 4
    case notice = 5
    case info = 6
    case debug = 7

    public static let min = FirebaseLoggerLevel.error
    public static let max = FirebaseLoggerLevel.debug
}

/// The Firebase version this module stands for (`FIRFirebaseVersion()`, FIRVersion.h): the one its rules were read
/// in (12.19.0, FirebaseMessaging.podspec @ eed63a35).
public func FirebaseVersion() -> String { "12.19.0" }
