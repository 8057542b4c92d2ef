import CioInternalCommon

/// The push module's configuration (Sources/MessagingPush/Config/MessagingPushConfigBuilder.swift at 129fb3ec): an
/// extension builds it with `MessagingPushConfigBuilder(cdpApiKey:)`.
public class MessagingPushConfigBuilder {
    private var logLevel: CioLogLevel = .error
    private let cdpApiKey: String
    private var region: Region = .US
    private var autoFetchDeviceToken = true
    private var autoTrackPushEvents = true
    private var showPushAppInForeground = true
    private var appGroupId: String?

    /// The app's builder, without a key.
    public init() {
        cdpApiKey = ""
    }

    /// The extension's builder.
    public init(cdpApiKey: String) {
        self.cdpApiKey = cdpApiKey
    }

    @discardableResult
    public func region(_ region: Region) -> MessagingPushConfigBuilder {
        self.region = region
        return self
    }

    @discardableResult
    public func logLevel(_ logLevel: CioLogLevel) -> MessagingPushConfigBuilder {
        self.logLevel = logLevel
        return self
    }

    @discardableResult
    public func autoFetchDeviceToken(_ value: Bool) -> MessagingPushConfigBuilder {
        autoFetchDeviceToken = value
        return self
    }

    /// Whether the extension reports "delivered" (true by default).
    @discardableResult
    public func autoTrackPushEvents(_ value: Bool) -> MessagingPushConfigBuilder {
        autoTrackPushEvents = value
        return self
    }

    @discardableResult
    public func showPushAppInForeground(_ value: Bool) -> MessagingPushConfigBuilder {
        showPushAppInForeground = value
        return self
    }

    /// The App Group the extension shares with the app (4.4.0 and later).
    @discardableResult
    public func appGroupId(_ value: String) -> MessagingPushConfigBuilder {
        appGroupId = value
        return self
    }

    public func build() -> MessagingPushConfigOptions {
        MessagingPushConfigOptions(
            logLevel: logLevel, cdpApiKey: cdpApiKey, region: region, autoFetchDeviceToken: autoFetchDeviceToken,
            autoTrackPushEvents: autoTrackPushEvents, showPushAppInForeground: showPushAppInForeground,
            appGroupId: appGroupId)
    }

    public enum Keys: String {
        case region
        case autoFetchDeviceToken
        case autoTrackPushEvents
        case showPushAppInForeground
        case appGroupId
    }
}

/// What ``MessagingPushConfigBuilder/build()`` gives (Sources/MessagingPush/Config/MessagingPushConfigOptions.swift).
public struct MessagingPushConfigOptions: Sendable {
    public let logLevel: CioLogLevel
    public let cdpApiKey: String
    public let region: Region
    public let autoFetchDeviceToken: Bool
    public let autoTrackPushEvents: Bool
    public let showPushAppInForeground: Bool
    public let appGroupId: String?
}
