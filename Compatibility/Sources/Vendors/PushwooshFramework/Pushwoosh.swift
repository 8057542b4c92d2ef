import Foundation

/// The app's Pushwoosh instance, as far as an extension file names it: `Pushwoosh.sharedInstance()` and
/// `Pushwoosh.debug` (PushwooshFramework.h @ f8c5cc86, PushwooshSwiftInterface.swift @ 0cb568dd). Registration, tags and
/// the rest of the app's API are not here.
open class Pushwoosh: NSObject, @unchecked Sendable {
    // @unchecked: no state.
    private static let instance = Pushwoosh()

    @discardableResult
    open class func sharedInstance() -> Pushwoosh { instance }

    /// Logging (`Pushwoosh.debug.setLogLevel(.PW_LL_DEBUG)`).
    public static var debug: any PWDebug.Type { PushwooshLog.self }
}
