public import RichPushCore
import RichPushNetwork

/// `NAME.expect.json`: the conditions a payload is replayed under and what its result must contain.
public struct Expectation: Sendable, Equatable {
    /// App state for this payload, overriding `--state`.
    public var appState: AppState?
    /// Image key paths added for this payload, as `--image-key` would.
    public var imageKeys: [PayloadKeyPath]
    /// Download timeout for this payload, overriding `--download-timeout`.
    public var downloadTimeout: Duration?
    /// Extension budget for this payload, overriding `--extension-budget`.
    public var extensionBudget: Duration?
    /// Largest image the extension downloads for this payload, overriding `--extension-max-bytes`.
    public var extensionMaxImageBytes: Int?
    /// A partial result: every key given must match the result.
    public var expect: JSONObject

    public static let givenKeys = [
        "appState", "imageKeys", "downloadTimeout", "extensionBudget", "extensionMaxImageBytes",
    ]

    public init(
        appState: AppState? = nil, imageKeys: [PayloadKeyPath] = [], downloadTimeout: Duration? = nil,
        extensionBudget: Duration? = nil, extensionMaxImageBytes: Int? = nil, expect: JSONObject
    ) {
        self.appState = appState
        self.imageKeys = imageKeys
        self.downloadTimeout = downloadTimeout
        self.extensionBudget = extensionBudget
        self.extensionMaxImageBytes = extensionMaxImageBytes
        self.expect = expect
    }

    /// The configuration this payload replays under: `base` with the expectation's `given` applied.
    public func configuration(from base: DeliveryConfiguration) -> DeliveryConfiguration {
        var configuration = base
        for key in imageKeys where !configuration.imagePolicy.keyPaths.contains(key) {
            configuration.imagePolicy.keyPaths.append(key)
        }
        if let downloadTimeout { configuration.downloadTimeout = downloadTimeout }
        if let extensionBudget { configuration.extensionBudget = extensionBudget }
        if let extensionMaxImageBytes { configuration.extensionMaxImageBytes = extensionMaxImageBytes }
        return configuration
    }

    /// Reads an expectation document; the error names the problem (the caller adds the file name).
    public static func parse(_ bytes: some Collection<UInt8>) throws(ExpectationError) -> Expectation {
        let document: JSONValue
        do {
            document = try JSONParser.parse(bytes)
        } catch {
            throw ExpectationError("not valid JSON at \(error)")
        }
        guard case .object(let root) = document else {
            throw ExpectationError("must be a JSON object with \"given\" and \"expect\"")
        }
        for key in root.keys where key != "given" && key != "expect" {
            throw ExpectationError("unknown key \"\(key)\"; use \"given\" and \"expect\"")
        }
        var expectation = Expectation(expect: JSONObject())
        if let given = root["given"] {
            guard case .object(let given) = given else { throw ExpectationError("\"given\" must be an object") }
            for key in given.keys where !givenKeys.contains(key) {
                throw ExpectationError(
                    "unknown key \"given.\(key)\"; \"given\" supports \(givenKeys.map { "\"\($0)\"" }.joined(separator: ", "))"
                )
            }
            if let state = given["appState"] {
                guard let name = state.stringValue, let parsed = AppState(rawValue: name) else {
                    throw ExpectationError(
                        "given.appState must be \"foreground\", \"background\" or \"closed\", not \(JSONWriter.string(state))"
                    )
                }
                expectation.appState = parsed
            }
            if let keys = given["imageKeys"] {
                guard case .array(let list) = keys else {
                    throw ExpectationError("given.imageKeys must be an array of key paths like [\"data.smallImage\"]")
                }
                for entry in list {
                    guard let text = entry.stringValue, let keyPath = PayloadKeyPath(parsing: text) else {
                        throw ExpectationError(
                            "given.imageKeys holds \(JSONWriter.string(entry)), not a key path like \"data.smallImage\""
                        )
                    }
                    expectation.imageKeys.append(keyPath)
                }
            }
            expectation.downloadTimeout = try duration(given["downloadTimeout"], name: "downloadTimeout")
            expectation.extensionBudget = try duration(given["extensionBudget"], name: "extensionBudget")
            if let size = given["extensionMaxImageBytes"] {
                guard let text = size.stringValue, let bytes = try? FaultSpec.parseSize(text, name: "size"), bytes > 0
                else {
                    throw ExpectationError(
                        "given.extensionMaxImageBytes must be a size like \"20MB\" or \"512KB\", not \(JSONWriter.string(size))"
                    )
                }
                expectation.extensionMaxImageBytes = bytes
            }
        }
        guard case .object(let expect)? = root["expect"] else {
            throw ExpectationError("\"expect\" must be an object holding the fields the result must have")
        }
        expectation.expect = expect
        return expectation
    }

    private static func duration(_ value: JSONValue?, name: String) throws(ExpectationError) -> Duration? {
        guard let value else { return nil }
        guard let text = value.stringValue, let duration = Duration(humanReadable: text), duration > .zero else {
            throw ExpectationError(
                "given.\(name) must be a duration like \"750ms\" or \"5s\", not \(JSONWriter.string(value))")
        }
        return duration
    }
}

public struct ExpectationError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
