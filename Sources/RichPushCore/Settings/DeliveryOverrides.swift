public import Foundation

/// The settings one payload is delivered under, beside the command line's: the `given` object of its
/// `NAME.expect.json`. Every front end reads them with ``parse(given:)`` and the system applies them in
/// ``NotificationSystem/deliver(payload:file:appState:settings:observer:)``, so a payload behaves the same
/// in replay, in the notification center and over the network.
public struct PayloadSettings: Sendable, Equatable {
    /// App state for this payload (replay uses it instead of `--state`; the notification center keeps the
    /// state on screen).
    public var appState: AppState?
    /// Image key paths added for this payload, as `--image-key` would.
    public var imageKeys: [PayloadKeyPath]
    /// Download timeout for this payload, overriding `--download-timeout`.
    public var downloadTimeout: Duration?
    /// Extension budget for this payload, overriding `--extension-budget`.
    public var extensionBudget: Duration?
    /// Largest image the extension downloads for this payload, overriding `--extension-max-bytes`.
    public var extensionMaxImageBytes: Int?
    /// Where the extension POSTs its display receipt for this payload, overriding `--receipt-url` (https only).
    public var receiptURL: URL?
    /// Push id key paths added for this payload, as `--push-id-key` would.
    public var pushIDKeys: [PayloadKeyPath]
    /// The vendor extension this payload is delivered through, overriding `--sdk`.
    public var sdk: SDKProfile?
    /// The team's extension this payload's expectation was written for (`given.extension`, a folder relative to the
    /// payload's): replay runs the payload only with that `--extension`, and skips it otherwise.
    public var extensionFolder: String?
    /// Set by the `--sdk all` matrix, never by a file: whether this delivery runs the team's extension (true) or
    /// the emulated one named by `sdk` (false); nil leaves the system's choice.
    public var runsCustomExtension: Bool?

    /// The keys `given` accepts.
    public static let keys = [
        "appState", "imageKeys", "downloadTimeout", "extensionBudget", "extensionMaxImageBytes", "receiptURL",
        "pushIDKeys", "sdk", "extension",
    ]

    public init(
        appState: AppState? = nil, imageKeys: [PayloadKeyPath] = [], downloadTimeout: Duration? = nil,
        extensionBudget: Duration? = nil, extensionMaxImageBytes: Int? = nil, receiptURL: URL? = nil,
        pushIDKeys: [PayloadKeyPath] = [], sdk: SDKProfile? = nil
    ) {
        self.appState = appState
        self.imageKeys = imageKeys
        self.downloadTimeout = downloadTimeout
        self.extensionBudget = extensionBudget
        self.extensionMaxImageBytes = extensionMaxImageBytes
        self.receiptURL = receiptURL
        self.pushIDKeys = pushIDKeys
        self.sdk = sdk
    }

    /// `base` with these settings applied.
    public func applied(to base: DeliveryConfiguration) -> DeliveryConfiguration {
        var configuration = base
        for key in imageKeys where !configuration.imagePolicy.keyPaths.contains(key) {
            configuration.imagePolicy.keyPaths.append(key)
        }
        if let downloadTimeout { configuration.downloadTimeout = downloadTimeout }
        if let extensionBudget { configuration.extensionBudget = extensionBudget }
        if let extensionMaxImageBytes { configuration.extensionMaxImageBytes = extensionMaxImageBytes }
        if let receiptURL { configuration.receiptURL = receiptURL }
        for key in pushIDKeys where !configuration.pushIDKeys.contains(key) {
            configuration.pushIDKeys.append(key)
        }
        if let sdk { configuration.sdk = sdk }
        if let runsCustomExtension { configuration.runsCustomExtension = runsCustomExtension }
        return configuration
    }

    /// Reads a `given` object; the error names the key and the problem (the caller adds the file name).
    public static func parse(given value: JSONValue) throws(PayloadSettingsError) -> PayloadSettings {
        guard case .object(let given) = value else { throw PayloadSettingsError("\"given\" must be an object") }
        for key in given.keys where !keys.contains(key) {
            throw PayloadSettingsError(
                "unknown key \"given.\(key)\"; \"given\" supports \(keys.map { "\"\($0)\"" }.joined(separator: ", "))")
        }
        var settings = PayloadSettings()
        if let state = given["appState"] {
            guard let name = state.stringValue, let parsed = AppState(rawValue: name) else {
                throw PayloadSettingsError(
                    "given.appState must be \"foreground\", \"background\" or \"closed\", not \(JSONWriter.string(state))"
                )
            }
            settings.appState = parsed
        }
        if let keys = given["imageKeys"] {
            guard case .array(let list) = keys else {
                throw PayloadSettingsError("given.imageKeys must be an array of key paths like [\"data.smallImage\"]")
            }
            for entry in list {
                guard let text = entry.stringValue, let keyPath = PayloadKeyPath(parsing: text) else {
                    throw PayloadSettingsError(
                        "given.imageKeys holds \(JSONWriter.string(entry)), not a key path like \"data.smallImage\"")
                }
                settings.imageKeys.append(keyPath)
            }
        }
        settings.downloadTimeout = try duration(given["downloadTimeout"], name: "downloadTimeout")
        settings.extensionBudget = try duration(given["extensionBudget"], name: "extensionBudget")
        if let size = given["extensionMaxImageBytes"] {
            guard let text = size.stringValue, let bytes = ByteSize.parse(text), bytes > 0 else {
                throw PayloadSettingsError(
                    "given.extensionMaxImageBytes must be a size like \"20MB\" or \"512KB\", not \(JSONWriter.string(size))"
                )
            }
            settings.extensionMaxImageBytes = bytes
        }
        if let url = given["receiptURL"] {
            guard let text = url.stringValue else {
                throw PayloadSettingsError(
                    "given.receiptURL must be an https URL string, not \(JSONWriter.string(url))")
            }
            switch Self.receiptURL(text) {
            case .success(let parsed): settings.receiptURL = parsed
            case .failure(let problem): throw PayloadSettingsError("given.receiptURL \(problem.message)")
            }
        }
        if let keys = given["pushIDKeys"] {
            guard case .array(let list) = keys else {
                throw PayloadSettingsError("given.pushIDKeys must be an array of key paths like [\"data.pid\"]")
            }
            for entry in list {
                guard let text = entry.stringValue, let keyPath = PayloadKeyPath(parsing: text) else {
                    throw PayloadSettingsError(
                        "given.pushIDKeys holds \(JSONWriter.string(entry)), not a key path like \"data.pid\"")
                }
                settings.pushIDKeys.append(keyPath)
            }
        }
        if let folder = given["extension"] {
            guard let text = folder.stringValue, !text.isEmpty else {
                throw PayloadSettingsError(
                    "given.extension must be the extension's folder, relative to the payload's, not \(JSONWriter.string(folder))"
                )
            }
            settings.extensionFolder = text
        }
        if let sdk = given["sdk"] {
            guard let name = sdk.stringValue, let profile = SDKProfile.named(name) else {
                throw PayloadSettingsError(
                    "given.sdk must be one of \(SDKProfile.names.map { "\"\($0)\"" }.joined(separator: ", ")), not \(JSONWriter.string(sdk))"
                )
            }
            settings.sdk = profile
        }
        return settings
    }

    /// Checks a receipt URL as every front end does: absolute, https (App Transport Security), with a host.
    /// The failure completes the sentence "--receipt-url …" or "given.receiptURL …".
    public static func receiptURL(_ text: String) -> Result<URL, PayloadSettingsError> {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased() else {
            return .failure(PayloadSettingsError("must be an absolute https URL, not \"\(text)\""))
        }
        guard scheme == "https" else {
            return .failure(
                PayloadSettingsError(
                    "must be https (App Transport Security refuses \(scheme):// on a device), not \"\(text)\""))
        }
        guard let host = url.host, !host.isEmpty else {
            return .failure(PayloadSettingsError("has no host: \"\(text)\""))
        }
        if let port = url.port, !(1...65535).contains(port) {
            return .failure(PayloadSettingsError("has port \(port), out of range (1-65535)"))
        }
        return .success(url)
    }

    private static func duration(_ value: JSONValue?, name: String) throws(PayloadSettingsError) -> Duration? {
        guard let value else { return nil }
        guard let text = value.stringValue, let duration = Duration(humanReadable: text), duration > .zero else {
            throw PayloadSettingsError(
                "given.\(name) must be a duration like \"750ms\" or \"5s\", not \(JSONWriter.string(value))")
        }
        return duration
    }
}

/// Why a `given` object cannot be used.
public struct PayloadSettingsError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
