import ArgumentParser
import Foundation
import RichPushCore
import RichPushLibrary
import RichPushNetwork

/// How the emulated extension fetches an image: the options `show` takes, and part of every front end's
/// ``DeliveryOptions``. Unset options leave ``DeliveryConfiguration``'s defaults, which their help quotes.
struct ImageFetchOptions: ParsableArguments {
    private static let defaults = DeliveryConfiguration()

    @Option(
        help: ArgumentHelp(
            "Image download timeout, e.g. 5s or 750ms (default: \(DurationArgument.text(defaults.downloadTimeout))).",
            valueName: "DUR"))
    var downloadTimeout: DurationArgument?

    @Option(
        help: ArgumentHelp(
            "Time the extension gets before serviceExtensionTimeWillExpire, e.g. 30s (default: \(DurationArgument.text(defaults.extensionBudget))).",
            valueName: "DUR"))
    var extensionBudget: DurationArgument?

    @Option(
        help: ArgumentHelp(
            "Largest image the extension downloads, e.g. 20MB, to see what iOS does with an extension that does not check sizes (default: the iOS limit, \(ByteCount.limit(defaults.attachmentMaxBytes))).",
            valueName: "SIZE"))
    var extensionMaxBytes: SizeArgument?

    @Option(
        name: .customLong("fixtures"),
        help: ArgumentHelp(
            "Folder the embedded fixture CDN serves https://fixtures.richpush.test/ from (default: payloads/images, else the installed images).",
            valueName: "DIR"))
    var fixtures: String?

    /// The folder the fixture CDN serves.
    var fixtureRoot: String { fixtures ?? InstalledFiles.defaultFixtureRoot }

    /// What these options change.
    var overrides: DeliveryOverrides {
        DeliveryOverrides(
            downloadTimeout: downloadTimeout?.duration, extensionBudget: extensionBudget?.duration,
            downloadMaxBytes: extensionMaxBytes?.bytes)
    }

    func validate() throws {
        if let downloadTimeout, downloadTimeout.duration <= .zero {
            throw ValidationError("--download-timeout must be more than 0")
        }
        if let extensionBudget, extensionBudget.duration <= .zero {
            throw ValidationError("--extension-budget must be more than 0")
        }
    }
}

/// The options every front end that delivers payloads shares: how the emulated device fetches images, where it
/// looks in a payload, which extension runs. They are read into ``DeliveryOverrides``, the type a payload's `given`
/// is read into too, and applied to the defaults in one place (``DeliveryOverrides/applied(to:)``).
struct DeliveryOptions: ParsableArguments {
    @OptionGroup var fetch: ImageFetchOptions

    @Option(
        name: .customLong("image-key"),
        help: ArgumentHelp(
            "Also look for the image URL at KEYPATH, after fcm_options.image and notification.image (repeatable), e.g. data.smallImage or aps.alert.image.",
            valueName: "KEYPATH"))
    var imageKeys: [KeyPathArgument] = []

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
            "Run the app's own Notification Service Extension instead of an emulated one: its folder of Swift files or the app's Xcode project, built unmodified against richpush's compatibility modules and run in a process per notification.",
            valueName: "DIR|PROJECT"))
    var extensionFolder: String?

    @OptionGroup var principalClass: PrincipalClassOption

    @OptionGroup(title: "The phone") var phone: PhoneOptions

    @Option(
        name: .customLong("extension-memory"),
        help: ArgumentHelp(
            "Memory footprint the extension may reach above an empty extension's before it is ended, as iOS does (default \(ByteCount.limit(DeliveryConfiguration.defaultExtensionMemoryBytes))).",
            valueName: "SIZE"))
    var extensionMemory: SizeArgument?

    @Option(
        name: .customLong("extension-process"),
        help: ArgumentHelp(
            "How --extension's processes take notifications, as iOS may run them: each (a process per notification), reuse (a process takes later ones, one at a time, a new instance each), concurrent (one process, several at once), same-instance (one instance receives every didReceive); replay also takes all, one run per mode (default: \(ExtensionProcessMode.defaultMode)).",
            valueName: "MODE"))
    var extensionProcess: String?

    @Option(
        name: .customLong("categories"),
        help: ArgumentHelp(
            "The notification categories the app registers, as JSON in the shape of its setNotificationCategories call (docs/presentation.md): the buttons each notification shows.",
            valueName: "FILE"),
        transform: { path in try CategoriesFile.load(path).mapError { ValidationError($0.message) }.get() })
    var categories: AppCategories?

    /// `--sdk all`: every profile (replay's matrix).
    var allSDKs: Bool { sdk.lowercased() == "all" }

    /// `--extension-process all`: every mode (replay's matrix).
    var allProcessModes: Bool { extensionProcess?.lowercased() == "all" }

    /// The folder the fixture CDN serves.
    var fixtureRoot: String { fetch.fixtureRoot }

    /// What the command line changes; `--sdk all` leaves the SDK to the matrix.
    var overrides: DeliveryOverrides {
        var overrides = fetch.overrides
        overrides.imageKeys = imageKeys.map(\.keyPath)
        overrides.receiptURL = receiptURL.flatMap { try? DeliveryOverrides.receiptURL($0).get() }
        overrides.pushIDKeys = pushIDKeys.map(\.keyPath)
        overrides.sdk = SDKProfile.named(sdk)
        overrides.extensionMemoryBytes = extensionMemory?.bytes
        overrides.extensionProcess = extensionProcess.flatMap(ExtensionProcessMode.init(named:))
        overrides.categories = categories
        overrides.device = phone.device
        return overrides
    }

    /// The run's configuration: the defaults with the command line's overrides applied.
    var configuration: DeliveryConfiguration { overrides.applied(to: DeliveryConfiguration()) }

    func validate() throws {
        guard allSDKs || SDKProfile.named(sdk) != nil else {
            throw ValidationError(
                "--sdk must be one of \(SDKProfile.names.joined(separator: ", ")) or all, not \"\(TextSanitizer.singleLine(sdk, limit: 40))\""
            )
        }
        if let extensionProcess {
            guard allProcessModes || ExtensionProcessMode(named: extensionProcess) != nil else {
                throw ValidationError(
                    "--extension-process must be one of \(ExtensionProcessMode.names.joined(separator: ", ")) or all, not \"\(TextSanitizer.singleLine(extensionProcess, limit: 40))\""
                )
            }
            guard extensionFolder != nil else {
                throw ValidationError(
                    "--extension-process says how --extension's processes are run; give --extension too")
            }
            if allProcessModes && allSDKs {
                throw ValidationError("--sdk all and --extension-process all are two matrices; run them one at a time")
            }
        }
        if principalClass.name != nil && extensionFolder == nil {
            throw ValidationError("--principal-class names the class of --extension DIR; give --extension too")
        }
        if principalClass.target != nil && extensionFolder == nil {
            throw ValidationError("--target names a target of --extension PROJECT; give --extension too")
        }
        if !principalClass.extensionSources.isEmpty && extensionFolder == nil {
            throw ValidationError("--extension-sources adds files to --extension DIR; give --extension too")
        }
        if let receiptURL, case .failure(let problem) = DeliveryOverrides.receiptURL(receiptURL) {
            throw ValidationError("--receipt-url \(problem.message)")
        }
    }
}

struct DurationArgument: ExpressibleByArgument, Sendable {
    var duration: Duration

    /// A duration as the option takes it: "5s", "750ms".
    static func text(_ duration: Duration) -> String {
        duration.shortDescription.replacingOccurrences(of: " ", with: "")
    }

    init?(argument: String) {
        guard let duration = Duration(humanReadable: argument) else { return nil }
        self.duration = duration
    }
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
