/// The tunable limits of the emulated device. The defaults are iOS's and the requirement's.
public struct DeliveryConfiguration: Sendable, Equatable {
    /// One deadline for the image download (the requirement's 5 s).
    public var downloadTimeout: Duration
    /// Time iOS gives the extension before `serviceExtensionTimeWillExpire` (about 30 s).
    public var extensionBudget: Duration
    /// Where the extension looks for the image URL.
    public var imagePolicy: ImageURLPolicy
    /// Largest image attachment iOS accepts (10 MB); the system drops larger ones after the extension.
    public var maxImageBytes: Int
    /// Largest image the extension's own downloader accepts. The requirement's extension enforces the iOS
    /// limit; set it higher to see what iOS does with an extension that does not check the size.
    public var extensionMaxImageBytes: Int

    public init(
        downloadTimeout: Duration = .seconds(5), extensionBudget: Duration = .seconds(30),
        imagePolicy: ImageURLPolicy = .blueprint, maxImageBytes: Int = DownloadLimits.tenMegabytes,
        extensionMaxImageBytes: Int? = nil
    ) {
        self.downloadTimeout = downloadTimeout
        self.extensionBudget = extensionBudget
        self.imagePolicy = imagePolicy
        self.maxImageBytes = maxImageBytes
        self.extensionMaxImageBytes = extensionMaxImageBytes ?? maxImageBytes
    }
}
