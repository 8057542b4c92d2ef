/// The limits one notification was delivered under, after its per-payload settings were applied,
/// so every front end explains a timeout or an expiry with the numbers that were really in force.
public struct EffectiveLimits: Sendable, Equatable {
    /// The image download deadline.
    public var downloadTimeout: Duration
    /// The time the extension had before `serviceExtensionTimeWillExpire`.
    public var extensionBudget: Duration
    /// The largest image the extension's downloader accepted.
    public var downloadMaxBytes: Int
    /// The largest image attachment iOS accepts after the extension (10 MB).
    public var attachmentMaxBytes: Int
    /// The memory footprint a team's extension may reach (24 MB, as iOS ends an extension past about that).
    public var extensionMemoryBytes: Int

    public init(
        downloadTimeout: Duration, extensionBudget: Duration, downloadMaxBytes: Int, attachmentMaxBytes: Int,
        extensionMemoryBytes: Int = DeliveryConfiguration.defaultExtensionMemoryBytes
    ) {
        self.extensionMemoryBytes = extensionMemoryBytes
        self.downloadTimeout = downloadTimeout
        self.extensionBudget = extensionBudget
        self.downloadMaxBytes = downloadMaxBytes
        self.attachmentMaxBytes = attachmentMaxBytes
    }

    public init(_ configuration: DeliveryConfiguration) {
        self.init(
            downloadTimeout: configuration.effectiveDownloadTimeout, extensionBudget: configuration.extensionBudget,
            downloadMaxBytes: configuration.effectiveDownloadMaxBytes,
            attachmentMaxBytes: configuration.attachmentMaxBytes,
            extensionMemoryBytes: configuration.extensionMemoryBytes)
    }

    /// The contract's `limits` object: durations in seconds, sizes in bytes.
    public var jsonValue: JSONValue {
        [
            "downloadTimeout": .number(downloadTimeout.seconds),
            "extensionBudget": .number(extensionBudget.seconds),
            "downloadMaxBytes": .number(Double(downloadMaxBytes)),
            // The contract's first name for downloadMaxBytes (DESIGN.md), kept for the consumers that read it.
            "maxImageBytes": .number(Double(downloadMaxBytes)),
            "attachmentMaxBytes": .number(Double(attachmentMaxBytes)),
            "extensionMemoryBytes": .number(Double(extensionMemoryBytes)),
        ]
    }
}
