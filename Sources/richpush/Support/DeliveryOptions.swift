import ArgumentParser
import Foundation
import RichPushCore
import RichPushNetwork

/// The options every front end shares: how the emulated device downloads images.
struct DeliveryOptions: ParsableArguments {
    @Option(
        name: .customLong("image-key"),
        help: ArgumentHelp(
            "Also look for the image URL at KEYPATH, after fcm_options.image and notification.image (repeatable), e.g. data.smallImage or aps.alert.image.",
            valueName: "KEYPATH"))
    var imageKeys: [KeyPathArgument] = []

    @Option(help: ArgumentHelp("Image download timeout, e.g. 5s or 750ms.", valueName: "DUR"))
    var downloadTimeout: DurationArgument = DurationArgument(.seconds(5))

    @Option(
        help: ArgumentHelp("Time the extension gets before serviceExtensionTimeWillExpire, e.g. 30s.", valueName: "DUR")
    )
    var extensionBudget: DurationArgument = DurationArgument(.seconds(30))

    @Option(
        help: ArgumentHelp(
            "Largest image the extension downloads, e.g. 20MB, to see what iOS does with an extension that does not check sizes (default: the iOS limit, 10MB).",
            valueName: "SIZE"))
    var extensionMaxBytes: SizeArgument?

    @Option(
        name: .customLong("fixtures"),
        help: ArgumentHelp(
            "Folder the embedded fixture CDN serves https://fixtures.richpush.test/ from.", valueName: "DIR"))
    var fixtureRoot: String = "payloads/images"

    @Option(
        name: .customLong("receipt-url"),
        help: ArgumentHelp(
            "When the extension runs and the payload has a push id, POST push_id=<id> to this https URL as a display receipt, without delaying the content handler.",
            valueName: "URL"))
    var receiptURL: String?

    @Option(
        name: .customLong("push-id-key"),
        help: ArgumentHelp(
            "Also look for the push id at KEYPATH, after push_id, data.push_id and aps.alert.push_id (repeatable).",
            valueName: "KEYPATH"))
    var pushIDKeys: [KeyPathArgument] = []

    @Option(
        help: ArgumentHelp(
            "The push SDK whose service extension is emulated: \(SDKProfile.names.joined(separator: ", ")) (replay also takes all, one run per SDK). A vendor's own timeout and size rule replace --download-timeout and --extension-max-bytes.",
            valueName: "NAME"))
    var sdk: String = SDKProfile.requirement.name

    @Option(
        name: .customLong("extension"),
        help: ArgumentHelp(
            "Run the app's own Notification Service Extension instead of an emulated one: the folder of its Swift files, built unmodified against richpush's compatibility modules and run in a process per notification.",
            valueName: "DIR"))
    var extensionFolder: String?

    @OptionGroup var principalClass: PrincipalClassOption

    @Option(
        name: .customLong("extension-memory"),
        help: ArgumentHelp(
            "Memory footprint the extension may reach above an empty extension's before it is ended, as iOS does (default 24MB).",
            valueName: "SIZE"))
    var extensionMemory: SizeArgument?

    /// `--sdk all`: every profile (replay's matrix).
    var allSDKs: Bool { sdk.lowercased() == "all" }

    var configuration: DeliveryConfiguration {
        var configuration = DeliveryConfiguration(
            downloadTimeout: downloadTimeout.duration, extensionBudget: extensionBudget.duration,
            imagePolicy: .blueprint(adding: imageKeys.map(\.keyPath)), extensionMaxImageBytes: extensionMaxBytes?.bytes,
            receiptURL: receiptURL.flatMap { try? PayloadSettings.receiptURL($0).get() },
            pushIDKeys: pushIDKeys.map(\.keyPath))
        configuration.sdk = SDKProfile.named(sdk) ?? .requirement
        if let extensionMemory { configuration.extensionMemoryBytes = extensionMemory.bytes }
        return configuration
    }

    func validate() throws {
        guard allSDKs || SDKProfile.named(sdk) != nil else {
            throw ValidationError(
                "--sdk must be one of \(SDKProfile.names.joined(separator: ", ")) or all, not \"\(TextSanitizer.singleLine(sdk, limit: 40))\""
            )
        }
        if principalClass.name != nil && extensionFolder == nil {
            throw ValidationError("--principal-class names the class of --extension DIR; give --extension too")
        }
        guard downloadTimeout.duration > .zero else { throw ValidationError("--download-timeout must be more than 0") }
        guard extensionBudget.duration > .zero else { throw ValidationError("--extension-budget must be more than 0") }
        if let receiptURL, case .failure(let problem) = PayloadSettings.receiptURL(receiptURL) {
            throw ValidationError("--receipt-url \(problem.message)")
        }
    }
}

struct DurationArgument: ExpressibleByArgument, Sendable {
    var duration: Duration

    init(_ duration: Duration) { self.duration = duration }

    init?(argument: String) {
        guard let duration = Duration(humanReadable: argument) else { return nil }
        self.duration = duration
    }

    var defaultValueDescription: String { duration.shortDescription.replacingOccurrences(of: " ", with: "") }
}

struct SizeArgument: ExpressibleByArgument, Sendable {
    var bytes: Int

    init?(argument: String) {
        guard let bytes = ByteSize.parse(argument), bytes > 0 else { return nil }
        self.bytes = bytes
    }
}

struct KeyPathArgument: ExpressibleByArgument, Sendable {
    var keyPath: PayloadKeyPath

    init?(argument: String) {
        guard let keyPath = PayloadKeyPath(parsing: argument) else { return nil }
        self.keyPath = keyPath
    }
}

extension AppState: ExpressibleByArgument {}
