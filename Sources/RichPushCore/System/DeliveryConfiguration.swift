/// The tunable limits of the emulated device. The defaults are iOS's and the requirement's.
public struct DeliveryConfiguration: Sendable, Equatable {
    /// One deadline for the image download (the requirement's 5 s).
    public var downloadTimeout: Duration
    /// Time iOS gives the extension before `serviceExtensionTimeWillExpire` (about 30 s).
    public var extensionBudget: Duration
    /// Where the extension looks for the image URL.
    public var imagePolicy: ImageURLPolicy
    /// Largest image accepted, by the downloader and by the system's attachment validation.
    public var maxImageBytes: Int

    public init(
        downloadTimeout: Duration = .seconds(5), extensionBudget: Duration = .seconds(30),
        imagePolicy: ImageURLPolicy = .blueprint, maxImageBytes: Int = DownloadLimits.tenMegabytes
    ) {
        self.downloadTimeout = downloadTimeout
        self.extensionBudget = extensionBudget
        self.imagePolicy = imagePolicy
        self.maxImageBytes = maxImageBytes
    }
}
