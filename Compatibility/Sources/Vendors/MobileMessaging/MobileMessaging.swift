import Foundation

/// The app SDK's entry point (Classes/MobileMessaging/Core/MobileMessaging.swift @ 14.4.3 069413b7), as far as an
/// extension file names it: the logger the sample sets.
public final class MobileMessaging: NSObject {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var current: (any MMLogging)?
    // nonisolated(unsafe): read and written under `lock` only.

    /// Where the SDK's log lines go; nil: nowhere.
    public static var logger: (any MMLogging)? {
        get {
            lock.lock()
            defer { lock.unlock() }
            return current
        }
        set {
            lock.lock()
            defer { lock.unlock() }
            current = newValue
        }
    }
}
