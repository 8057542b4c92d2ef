@_exported import Foundation
@_exported import UserNotifications
import RichPushRules
import RichPushVendorSupport

/// CleverTap's SDK (`CleverTap`, CleverTapSDK 7.7.0's CleverTap.h at ac24bbf6), as far as a Notification Service
/// Extension calls it: credentials and the debug level so CleverTap's starter extensions build, and
/// ``recordNotificationViewedEvent(withData:)``, whose request richpush records as "would send" from the `clevertap`
/// rules (`RichPushRules.CleverTap.wouldSend(for:)`) and never sends. Nothing here touches the network or the disk.
///
/// CleverTap gives no shared instance without an account (`_sharedInstanceWithCleverTapID:` returns nil); an
/// extension under richpush cannot show its Info.plist (`CleverTapAccountID`), so the shared instance is always there
/// and the account is the one set with `setCredentialsWithAccountID`, else a placeholder in the timeline.
open class CleverTap: NSObject, @unchecked Sendable {
    // @unchecked: the static settings are read and written under `settingsLock`; an instance's `config` is immutable.
    private static let settingsLock = NSLock()
    nonisolated(unsafe) private static var account: (id: String, token: String, region: String?)?
    nonisolated(unsafe) private static var debugLevel: Int32 = CleverTapLogLevel.off.rawValue
    private static let defaultInstance = CleverTap(config: nil)
    nonisolated(unsafe) private static var instances: [String: CleverTap] = [:]

    private let config: CleverTapInstanceConfig?

    init(config: CleverTapInstanceConfig?) {
        self.config = config
        super.init()
    }

    // MARK: Instances

    /// The default instance (`+sharedInstance`).
    @discardableResult
    open class func sharedInstance() -> Self? { defaultInstance as? Self }

    @discardableResult
    open class func sharedInstance(withCleverTapID cleverTapID: String) -> Self? { defaultInstance as? Self }

    /// In an app, integrates CleverTap with its delegate; in an extension it gives the default instance.
    @discardableResult
    open class func autoIntegrate() -> Self? { defaultInstance as? Self }

    @discardableResult
    open class func autoIntegrate(withCleverTapID cleverTapID: String) -> Self? { defaultInstance as? Self }

    /// An instance for another account (`+instanceWithConfig:`), one per account id.
    @discardableResult
    open class func instance(with config: CleverTapInstanceConfig) -> Self {
        settingsLock.lock()
        defer { settingsLock.unlock() }
        let found = instances[config.accountId] ?? CleverTap(config: config)
        instances[config.accountId] = found
        // An extension does not subclass CleverTap; the cast is the ObjC `instancetype`'s.
        return unsafeDowncast(found, to: self)
    }

    @discardableResult
    open class func instance(with config: CleverTapInstanceConfig, andCleverTapID cleverTapID: String) -> Self {
        instance(with: config)
    }

    @discardableResult
    open class func getGlobalInstance(_ accountId: String) -> CleverTap? {
        settingsLock.lock()
        defer { settingsLock.unlock() }
        return instances[accountId]
    }

    // MARK: Settings

    open class func setCredentialsWithAccountID(_ accountID: String, andToken token: String) {
        setAccount(accountID, token, region: nil)
    }

    open class func setCredentialsWithAccountID(_ accountID: String, token: String, region: String) {
        setAccount(accountID, token, region: region)
    }

    open class func setCredentialsWithAccountID(_ accountID: String, token: String, proxyDomain: String) {
        setAccount(accountID, token, region: nil)
    }

    open class func setCredentialsWithAccountID(
        _ accountID: String, token: String, proxyDomain: String, spikyProxyDomain: String
    ) {
        setAccount(accountID, token, region: nil)
    }

    open class func setCredentialsWithAccountID(
        _ accountID: String, token: String, proxyDomain: String, spikyProxyDomain: String, handshakeDomain: String
    ) {
        setAccount(accountID, token, region: nil)
    }

    @available(*, deprecated, message: "Use setCredentialsWithAccountID(_:andToken:)")
    open class func changeCredentials(withAccountID accountID: String, andToken token: String) {
        setAccount(accountID, token, region: nil)
    }

    @available(*, deprecated, message: "Use setCredentialsWithAccountID(_:token:region:)")
    open class func changeCredentials(withAccountID accountID: String, token: String, region: String) {
        setAccount(accountID, token, region: region)
    }

    private class func setAccount(_ id: String, _ token: String, region: String?) {
        settingsLock.lock()
        defer { settingsLock.unlock() }
        account = (id, token, region)
    }

    /// CleverTap's log level (`+setDebugLevel:` takes any int: its samples pass 2).
    open class func setDebugLevel(_ level: Int32) {
        settingsLock.lock()
        defer { settingsLock.unlock() }
        debugLevel = level
    }

    @discardableResult
    open class func getDebugLevel() -> CleverTapLogLevel {
        settingsLock.lock()
        defer { settingsLock.unlock() }
        return CleverTapLogLevel(rawValue: debugLevel) ?? (debugLevel > 0 ? .debug : .off)
    }

    /// Personalization reads the user's profile in the app: nothing to do in an extension.
    open class func enablePersonalization() {}
    open class func disablePersonalization() {}

    // MARK: Events

    /// The "Notification Viewed" event of a notification's `userInfo` (a dictionary; anything else is ignored, as
    /// CleverTap's `getNotificationDictionary:` ignores it). CleverTap queues it and flushes it 1 s later; richpush
    /// records the request(s) in the timeline, not sent.
    open func recordNotificationViewedEvent(withData notificationData: Any) {
        guard let userInfo = Self.dictionary(notificationData) else { return }
        let account: (id: String, token: String, region: String?)?
        if let config {
            account = (config.accountId, config.accountToken, config.accountRegion)
        } else {
            Self.settingsLock.lock()
            account = Self.account
            Self.settingsLock.unlock()
        }
        let rules = RichPushRules.CleverTap(accountID: account?.id, region: account?.region)
        VendorChannel.recordWouldSend(rules, for: userInfo)
    }

    /// "Notification Clicked" is the app's, when the user opens the notification: nothing in an extension.
    open func recordNotificationClickedEvent(withData notificationData: Any) {}

    /// Events and profile updates go to CleverTap's ordinary queue; richpush records none of them.
    open func recordEvent(_ event: String) {}
    open func recordEvent(_ event: String, withProps properties: [AnyHashable: Any]) {}
    open func profilePush(_ properties: [AnyHashable: Any]) {}
    open func onUserLogin(_ properties: [AnyHashable: Any]) {}

    /// Whether a payload has a key of CleverTap's (`W$…` or `wzrk_…`).
    @discardableResult
    open func isCleverTapNotification(_ payload: [AnyHashable: Any]) -> Bool {
        payload.keys.contains { Self.isCleverTapKey($0) }
    }

    private static func isCleverTapKey(_ key: AnyHashable) -> Bool {
        guard let text = key.base as? String else { return false }
        return text.hasPrefix("W$") || text.hasPrefix("wzrk_")
    }

    private static func dictionary(_ value: Any) -> [AnyHashable: Any]? {
        if let dictionary = value as? [AnyHashable: Any] { return dictionary }
        if let dictionary = value as? NSDictionary {
            var bridged: [AnyHashable: Any] = [:]
            for (key, value) in dictionary { if let key = key as? AnyHashable { bridged[key] = value } }
            return bridged
        }
        return nil
    }
}
