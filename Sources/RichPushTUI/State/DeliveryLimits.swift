import RichPushCore

/// The limits the progress lines and explanations quote, in seconds and bytes.
struct DeliveryLimits: Equatable, Sendable {
    var downloadTimeout: Double
    var extensionBudget: Double
    var maxImageBytes: Int

    init(downloadTimeout: Double = 5, extensionBudget: Double = 30, maxImageBytes: Int = DownloadLimits.tenMegabytes) {
        self.downloadTimeout = downloadTimeout
        self.extensionBudget = extensionBudget
        self.maxImageBytes = maxImageBytes
    }

    init(_ configuration: DeliveryConfiguration) {
        self.init(
            downloadTimeout: configuration.downloadTimeout.seconds,
            extensionBudget: configuration.extensionBudget.seconds,
            maxImageBytes: configuration.maxImageBytes)
    }
}
