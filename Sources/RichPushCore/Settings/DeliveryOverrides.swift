public import Foundation

/// What differs from the emulated device's defaults (``DeliveryConfiguration``), from either place a tester says it:
/// the command line (richpush's delivery options) and a payload's `given` object in its `NAME.expect.json`
/// (``parse(given:)``). ``applied(to:)`` is the one place they take effect: the command line's overrides make the
/// run's configuration, and each payload's own are applied on top of it by
/// ``NotificationSystem/deliver(_:observer:)``, so a payload behaves the same in replay, in the notification center
/// and over the network.
public struct DeliveryOverrides: Sendable, Equatable {
    /// The app's state (`given.appState`; replay uses it instead of `--state`, the notification center keeps the
    /// state on screen).
    public var appState: AppState?
    /// Image key paths looked at after the default ones (`--image-key`, `given.imageKeys`).
    public var imageKeys: [PayloadKeyPath]
    /// The image download deadline (`--download-timeout`, `given.downloadTimeout`).
    public var downloadTimeout: Duration?
    /// The time before `serviceExtensionTimeWillExpire` (`--extension-budget`, `given.extensionBudget`).
    public var extensionBudget: Duration?
    /// The largest image the extension downloads (`--extension-max-bytes`, `given.extensionMaxImageBytes`).
    public var downloadMaxBytes: Int?
    /// The memory a team's own extension may use (`--extension-memory`, `given.extensionMemory`).
    public var extensionMemoryBytes: Int?
    /// Where the extension POSTs its display receipt (`--receipt-url`, `given.receiptURL`; https only).
    public var receiptURL: URL?
    /// Push id key paths looked at after the default ones (`--push-id-key`, `given.pushIDKeys`).
    public var pushIDKeys: [PayloadKeyPath]
    /// The vendor extension delivered through (`--sdk`, `given.sdk`).
    public var sdk: SDKProfile?
    /// The team's extension this payload's expectation was written for (`given.extension`, a folder relative to the
    /// payload's): replay runs the payload only with that `--extension`, and skips it otherwise.
    public var extensionFolder: String?
    /// Set by the `--sdk all` matrix, never by a file: whether this delivery runs the team's extension (true) or
    /// the emulated one named by `sdk` (false); nil leaves the system's choice.
    public var runsCustomExtension: Bool?
    /// How notifications map to a team's extension's processes (`--extension-process`, `given.extensionProcess`
    /// as `serve --record` writes it, and the columns of `replay --extension-process all`).
    public var extensionProcess: ExtensionProcessMode?
    /// The APNs headers a recorded push came with (`given.headers`): the file is delivered with them as its `apns`.
    public var headers: PushHeaders?
    /// A refused push as it was recorded (`given.request`): replay judges the request again instead of delivering.
    public var request: RecordedRequest?
    /// The fixture CDN's files for this payload (`given.fixtures`, a folder relative to the payload's): replay serves
    /// `https://fixtures.richpush.test/` from it too.
    public var fixtures: String?
    /// When and from where the payload was recorded (`given.recorded`, written by `serve --record`).
    public var recorded: Recorded?
    /// The app's categories file for this payload (`given.categories`, relative to the expectation's folder), as
    /// written; whoever reads the expectation loads it into ``categories``.
    public var categoriesFile: String?
    /// The app's categories (`--categories`, or the file `given.categories` names).
    public var categories: AppCategories?
    /// How the person answers the notification (`given.respond`).
    public var respond: ResponseRequest?
    /// The phone's state from the command line (`--locked`, `--focus`, …): all of it.
    public var device: DeviceState?
    /// `given.device`, checked: the keys it gives change the run's state, the others keep it.
    public var devicePatch: DeviceState.Patch?

    /// What `given.recorded` says: the time (UTC, ISO 8601) and the host of an image that was not saved with
    /// `--record-images`, which replay then depends on.
    public struct Recorded: Sendable, Equatable {
        public var at: String
        public var imageHost: String?
        public init(at: String, imageHost: String? = nil) {
            self.at = at
            self.imageHost = imageHost
        }
        public var jsonValue: JSONValue {
            var object: JSONObject = ["at": .string(at)]
            if let imageHost { object["imageHost"] = .string(imageHost) }
            return .object(object)
        }
    }

    /// The keys `given` accepts.
    public static let keys = [
        "appState", "imageKeys", "downloadTimeout", "extensionBudget", "extensionMaxImageBytes", "extensionMemory",
        "extensionProcess", "receiptURL", "pushIDKeys", "sdk", "extension", "headers", "request", "fixtures",
        "recorded", "categories", "respond", "device",
    ]

    /// The delivery settings as `given` keys, in the form ``parse(given:)`` reads back (`serve --record` writes
    /// the run's with every push): image key paths, durations, sizes, the process mode and the SDK. The receipt
    /// URL and push id keys are left out: they change where a receipt goes, not what is shown, and a replay must
    /// not post receipts to the endpoint the recording was made against.
    public var deliveryGiven: JSONObject {
        var given = JSONObject()
        if !imageKeys.isEmpty { given["imageKeys"] = .array(imageKeys.map { .string($0.description) }) }
        if let downloadTimeout { given["downloadTimeout"] = .string(Self.text(downloadTimeout)) }
        if let extensionBudget { given["extensionBudget"] = .string(Self.text(extensionBudget)) }
        if let downloadMaxBytes { given["extensionMaxImageBytes"] = .string(ByteSize.describe(downloadMaxBytes)) }
        if let extensionMemoryBytes { given["extensionMemory"] = .string(ByteSize.describe(extensionMemoryBytes)) }
        if let extensionProcess { given["extensionProcess"] = .string(extensionProcess.rawValue) }
        if let sdk { given["sdk"] = .string(sdk.name) }
        return given
    }

    /// A duration as `given` takes it, exactly: `5s`, `750ms`.
    static func text(_ duration: Duration) -> String {
        let milliseconds =
            duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
        return milliseconds % 1000 == 0 ? "\(milliseconds / 1000)s" : "\(milliseconds)ms"
    }

    public init(
        appState: AppState? = nil, imageKeys: [PayloadKeyPath] = [], downloadTimeout: Duration? = nil,
        extensionBudget: Duration? = nil, downloadMaxBytes: Int? = nil, receiptURL: URL? = nil,
        pushIDKeys: [PayloadKeyPath] = [], sdk: SDKProfile? = nil
    ) {
        self.appState = appState
        self.imageKeys = imageKeys
        self.downloadTimeout = downloadTimeout
        self.extensionBudget = extensionBudget
        self.downloadMaxBytes = downloadMaxBytes
        self.receiptURL = receiptURL
        self.pushIDKeys = pushIDKeys
        self.sdk = sdk
    }

    /// `base` with these overrides applied; key paths are added after the base's.
    public func applied(to base: DeliveryConfiguration) -> DeliveryConfiguration {
        var configuration = base
        for key in imageKeys where !configuration.imagePolicy.keyPaths.contains(key) {
            configuration.imagePolicy.keyPaths.append(key)
        }
        if let downloadTimeout { configuration.downloadTimeout = downloadTimeout }
        if let extensionBudget { configuration.extensionBudget = extensionBudget }
        if let downloadMaxBytes { configuration.downloadMaxBytes = downloadMaxBytes }
        if let receiptURL { configuration.receiptURL = receiptURL }
        for key in pushIDKeys where !configuration.pushIDKeys.contains(key) {
            configuration.pushIDKeys.append(key)
        }
        if let sdk { configuration.sdk = sdk }
        if let extensionMemoryBytes { configuration.extensionMemoryBytes = extensionMemoryBytes }
        if let runsCustomExtension { configuration.runsCustomExtension = runsCustomExtension }
        if let extensionProcess { configuration.extensionProcess = extensionProcess }
        if let categories { configuration.categories = categories }
        if let respond { configuration.respond = respond }
        if let device { configuration.device = device }
        if let devicePatch { configuration.device = devicePatch.applied(to: configuration.device) }
        return configuration
    }

    /// Reads a `given` object; the error names the key and the problem (the caller adds the file name).
    public static func parse(given value: JSONValue) throws(DeliveryOverridesError) -> DeliveryOverrides {
        guard case .object(let given) = value else { throw DeliveryOverridesError("\"given\" must be an object") }
        for key in given.keys where !keys.contains(key) {
            throw DeliveryOverridesError(
                "unknown key \"given.\(key)\"; \"given\" supports \(keys.map { "\"\($0)\"" }.joined(separator: ", "))")
        }
        var settings = DeliveryOverrides()
        if let state = given["appState"] {
            guard let name = state.stringValue, let parsed = AppState(rawValue: name) else {
                throw DeliveryOverridesError(
                    "given.appState must be \"foreground\", \"background\" or \"closed\", not \(JSONWriter.string(state))"
                )
            }
            settings.appState = parsed
        }
        if let keys = given["imageKeys"] {
            guard case .array(let list) = keys else {
                throw DeliveryOverridesError("given.imageKeys must be an array of key paths like [\"data.smallImage\"]")
            }
            for entry in list {
                guard let text = entry.stringValue, let keyPath = PayloadKeyPath(parsing: text) else {
                    throw DeliveryOverridesError(
                        "given.imageKeys holds \(JSONWriter.string(entry)), not a key path like \"data.smallImage\"")
                }
                settings.imageKeys.append(keyPath)
            }
        }
        settings.downloadTimeout = try duration(given["downloadTimeout"], name: "downloadTimeout")
        settings.extensionBudget = try duration(given["extensionBudget"], name: "extensionBudget")
        if let size = given["extensionMaxImageBytes"] {
            guard let text = size.stringValue, let bytes = ByteSize.parse(text), bytes > 0 else {
                throw DeliveryOverridesError(
                    "given.extensionMaxImageBytes must be a size like \"20MB\" or \"512KB\", not \(JSONWriter.string(size))"
                )
            }
            settings.downloadMaxBytes = bytes
        }
        if let size = given["extensionMemory"] {
            guard let text = size.stringValue, let bytes = ByteSize.parse(text), bytes > 0 else {
                throw DeliveryOverridesError(
                    "given.extensionMemory must be a size like \"24MB\", not \(JSONWriter.string(size))")
            }
            settings.extensionMemoryBytes = bytes
        }
        if let mode = given["extensionProcess"] {
            guard let name = mode.stringValue, let parsed = ExtensionProcessMode(named: name) else {
                throw DeliveryOverridesError(
                    "given.extensionProcess must be one of \(ExtensionProcessMode.names.map { "\"\($0)\"" }.joined(separator: ", ")), not \(JSONWriter.string(mode))"
                )
            }
            settings.extensionProcess = parsed
        }
        if let url = given["receiptURL"] {
            guard let text = url.stringValue else {
                throw DeliveryOverridesError(
                    "given.receiptURL must be an https URL string, not \(JSONWriter.string(url))")
            }
            switch Self.receiptURL(text) {
            case .success(let parsed): settings.receiptURL = parsed
            case .failure(let problem): throw DeliveryOverridesError("given.receiptURL \(problem.message)")
            }
        }
        if let keys = given["pushIDKeys"] {
            guard case .array(let list) = keys else {
                throw DeliveryOverridesError("given.pushIDKeys must be an array of key paths like [\"data.pid\"]")
            }
            for entry in list {
                guard let text = entry.stringValue, let keyPath = PayloadKeyPath(parsing: text) else {
                    throw DeliveryOverridesError(
                        "given.pushIDKeys holds \(JSONWriter.string(entry)), not a key path like \"data.pid\"")
                }
                settings.pushIDKeys.append(keyPath)
            }
        }
        if let folder = given["extension"] {
            guard let text = folder.stringValue, !text.isEmpty else {
                throw DeliveryOverridesError(
                    "given.extension must be the extension's folder, relative to the payload's, not \(JSONWriter.string(folder))"
                )
            }
            settings.extensionFolder = text
        }
        if let sdk = given["sdk"] {
            guard let name = sdk.stringValue, let profile = SDKProfile.named(name) else {
                throw DeliveryOverridesError(
                    "given.sdk must be one of \(SDKProfile.names.map { "\"\($0)\"" }.joined(separator: ", ")), not \(JSONWriter.string(sdk))"
                )
            }
            settings.sdk = profile
        }
        if let headers = given["headers"] { settings.headers = try PushHeaders.parse(headers) }
        if let request = given["request"] { settings.request = try RecordedRequest.parse(request) }
        if let folder = given["fixtures"] {
            guard let text = folder.stringValue, !text.isEmpty else {
                throw DeliveryOverridesError(
                    "given.fixtures must be a folder of fixture files, relative to the payload's, not \(JSONWriter.string(folder))"
                )
            }
            settings.fixtures = text
        }
        if let file = given["categories"] {
            guard let text = file.stringValue, !text.isEmpty else {
                throw DeliveryOverridesError(
                    "given.categories must be the app's categories file, relative to the expectation's folder, not \(JSONWriter.string(file))"
                )
            }
            settings.categoriesFile = text
        }
        if let respond = given["respond"] { settings.respond = try ResponseRequest.parse(respond) }
        if let device = given["device"] {
            settings.devicePatch = try DeviceState.Patch.parse(device)
        }
        if let recorded = given["recorded"] {
            guard let at = recorded["at"]?.stringValue else {
                throw DeliveryOverridesError("given.recorded must be an object with the time it was recorded, \"at\"")
            }
            settings.recorded = Recorded(at: at, imageHost: recorded["imageHost"]?.stringValue)
        }
        return settings
    }

    /// Checks a receipt URL as every front end does: absolute, https (App Transport Security), with a host.
    /// The failure completes the sentence "--receipt-url …" or "given.receiptURL …".
    public static func receiptURL(_ text: String) -> Result<URL, DeliveryOverridesError> {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased() else {
            return .failure(DeliveryOverridesError("must be an absolute https URL, not \"\(text)\""))
        }
        guard scheme == "https" else {
            return .failure(
                DeliveryOverridesError(
                    "must be https (App Transport Security refuses \(scheme):// on a device), not \"\(text)\""))
        }
        guard let host = url.host, !host.isEmpty else {
            return .failure(DeliveryOverridesError("has no host: \"\(text)\""))
        }
        if let port = url.port, !(1...65535).contains(port) {
            return .failure(DeliveryOverridesError("has port \(port), out of range (1-65535)"))
        }
        return .success(url)
    }

    private static func duration(_ value: JSONValue?, name: String) throws(DeliveryOverridesError) -> Duration? {
        guard let value else { return nil }
        guard let text = value.stringValue, let duration = Duration(humanReadable: text), duration > .zero else {
            throw DeliveryOverridesError(
                "given.\(name) must be a duration like \"750ms\" or \"5s\", not \(JSONWriter.string(value))")
        }
        return duration
    }
}

/// Why a `given` object cannot be used.
public struct DeliveryOverridesError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
