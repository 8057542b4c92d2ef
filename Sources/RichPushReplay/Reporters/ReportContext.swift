import Foundation
public import RichPushCore

/// What a report says about the run besides its results: when, which richpush, under which settings.
public struct ReportContext: Sendable {
    public struct Setting: Sendable, Equatable {
        public var name: String
        public var value: String
        public init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    public var generatedAt: Date
    public var version: String
    public var settings: [Setting]

    public init(generatedAt: Date = Date(), version: String = RichPushVersion.current, settings: [Setting] = []) {
        self.generatedAt = generatedAt
        self.version = version
        self.settings = settings
    }

    /// The header of every report (a replay's, the notification center's export): what `about` says of the run,
    /// then the device it ran on, as the configuration in force: the extension that ran, the limits as they
    /// bound the deliveries (a vendor's own timeout and size rule included, the same numbers as each result's
    /// `limits`), the key paths looked at and the receipt URL; then `then`.
    public init(
        about: [Setting], configuration: DeliveryConfiguration, customExtension: String? = nil, then: [Setting] = [],
        generatedAt: Date = Date()
    ) {
        let limits = EffectiveLimits(configuration)
        var settings = about
        if let customExtension {
            settings.append(.init("Extension", "the team's own, from \(customExtension)"))
        } else {
            settings.append(.init("SDK", "\(configuration.sdk.name) (\(configuration.sdk.title))"))
        }
        settings += [
            .init("Download timeout", limits.downloadTimeout.shortDescription),
            .init("Extension budget", limits.extensionBudget.shortDescription),
            .init("Download cap", ByteCount.limit(limits.downloadMaxBytes)),
            .init("Attachment cap", ByteCount.limit(limits.attachmentMaxBytes)),
        ]
        if customExtension != nil {
            settings.append(.init("Extension memory", ByteCount.limit(limits.extensionMemoryBytes)))
        }
        settings.append(
            .init("Image keys", configuration.imagePolicy.keyPaths.map(\.description).joined(separator: ", ")))
        if !configuration.pushIDKeys.isEmpty {
            settings.append(.init("Push ID keys", configuration.pushIDKeys.map(\.description).joined(separator: ", ")))
        }
        if let receiptURL = configuration.receiptURL {
            settings.append(.init("Receipt URL", receiptURL.absoluteString))
        }
        self.init(generatedAt: generatedAt, settings: settings + then)
    }
}
