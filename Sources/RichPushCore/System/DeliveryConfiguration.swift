public import Foundation

/// The tunable limits of the emulated device. The defaults are iOS's and the emulated extension's.
public struct DeliveryConfiguration: Sendable, Equatable {
    /// One deadline for the image download (5 s by default).
    public var downloadTimeout: Duration
    /// Time iOS gives the extension before `serviceExtensionTimeWillExpire` (about 30 s).
    public var extensionBudget: Duration
    /// Where the extension looks for the image URL.
    public var imagePolicy: ImageURLPolicy
    /// Largest image attachment iOS accepts (10 MB); the system drops larger ones after the extension.
    public var attachmentMaxBytes: Int
    /// Largest image the extension's own downloader accepts. The emulated extension enforces the iOS
    /// limit; set it higher to see what iOS does with an extension that does not check the size.
    public var downloadMaxBytes: Int
    /// Where the extension POSTs its display receipt (`push_id=<id>`); nil sends none. https only.
    public var receiptURL: URL?
    /// Key paths read for the push id after `push_id`, `data.push_id` and `aps.alert.push_id`.
    public var pushIDKeys: [PayloadKeyPath]
    /// The vendor extension emulated (``SDKProfile/requirement`` by default). Its own timeout and size rule
    /// replace `downloadTimeout` and `downloadMaxBytes`, which configure the requirement's extension.
    public var sdk: SDKProfile = .requirement
    /// The memory footprint a team's own extension may reach above an empty extension's before it is ended
    /// (`--extension-memory`).
    public var extensionMemoryBytes: Int = DeliveryConfiguration.defaultExtensionMemoryBytes
    /// Whether a system with a team's own extension runs it (true) or the emulated one (`sdk`): false for the
    /// SDK columns of a matrix that also has the team's extension as a column.
    public var runsCustomExtension = true
    /// How notifications map to a team's extension's processes (`--extension-process`).
    public var extensionProcess: ExtensionProcessMode = .defaultMode
    /// The notification categories the app registers (`--categories`); nil: not known.
    public var categories: AppCategories?
    /// How a person answers each notification (`given.respond`); nil: they leave it.
    public var respond: ResponseRequest?
    /// The phone's state and the person's settings (`--locked`, `--focus`, …, `given.device`).
    public var device: DeviceState = .newPhone

    /// iOS ends a service extension whose footprint passes about 24 MB.
    public static let defaultExtensionMemoryBytes = 24 * 1024 * 1024

    /// Where the push id is looked for when no key path is added.
    public static let defaultPushIDKeys: [PayloadKeyPath] = ["push_id", "data.push_id", "aps.alert.push_id"]

    public init(
        downloadTimeout: Duration = .seconds(5), extensionBudget: Duration = .seconds(30),
        imagePolicy: ImageURLPolicy = .blueprint, attachmentMaxBytes: Int = DownloadLimits.tenMegabytes,
        downloadMaxBytes: Int? = nil, receiptURL: URL? = nil, pushIDKeys: [PayloadKeyPath] = []
    ) {
        self.downloadTimeout = downloadTimeout
        self.extensionBudget = extensionBudget
        self.imagePolicy = imagePolicy
        self.attachmentMaxBytes = attachmentMaxBytes
        self.downloadMaxBytes = downloadMaxBytes ?? attachmentMaxBytes
        self.receiptURL = receiptURL
        self.pushIDKeys = pushIDKeys
    }

    /// The download deadline in force: the profile's, or `downloadTimeout` for the requirement's extension.
    public var effectiveDownloadTimeout: Duration {
        sdk.rules.downloadTimeout(configured: downloadTimeout)
    }

    /// The largest body the extension's download accepts: the profile's rule, or `downloadMaxBytes`.
    public var effectiveDownloadMaxBytes: Int {
        sdk.rules.downloadMaxBytes(configured: downloadMaxBytes)
    }
}
