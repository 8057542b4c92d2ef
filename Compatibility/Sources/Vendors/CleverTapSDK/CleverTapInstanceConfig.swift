import Foundation

/// An account of CleverTap's other than the default one (CleverTapInstanceConfig.h at 9b77e26c), for
/// `CleverTap.instance(with:)`. Only the account id and region reach richpush (the "would send" request's address).
open class CleverTapInstanceConfig: NSObject, @unchecked Sendable {
    // @unchecked: as CleverTap's, its settings are the app's to set before handing it over; the instance reads only
    // the immutable account fields.
    public let accountId: String
    public let accountToken: String
    public let accountRegion: String?
    public let proxyDomain: String?
    public let spikyProxyDomain: String?

    open var logLevel: CleverTapLogLevel = .info
    open var analyticsOnly = false
    open var disableAppLaunchedEvent = false
    open var enablePersonalization = true
    open var useCustomCleverTapId = false
    open var disableIDFV = false
    open var enableFileProtection = false
    open var handshakeDomain: String?

    public init(accountId: String, accountToken: String) {
        (self.accountId, self.accountToken) = (accountId, accountToken)
        (accountRegion, proxyDomain, spikyProxyDomain) = (nil, nil, nil)
        super.init()
    }

    public init(accountId: String, accountToken: String, accountRegion: String) {
        (self.accountId, self.accountToken, self.accountRegion) = (accountId, accountToken, accountRegion)
        (proxyDomain, spikyProxyDomain) = (nil, nil)
        super.init()
    }

    public init(accountId: String, accountToken: String, proxyDomain: String) {
        (self.accountId, self.accountToken, self.proxyDomain) = (accountId, accountToken, proxyDomain)
        (accountRegion, spikyProxyDomain) = (nil, nil)
        super.init()
    }

    public init(accountId: String, accountToken: String, proxyDomain: String, spikyProxyDomain: String) {
        (self.accountId, self.accountToken) = (accountId, accountToken)
        (self.proxyDomain, self.spikyProxyDomain) = (proxyDomain, spikyProxyDomain)
        accountRegion = nil
        super.init()
    }
}
