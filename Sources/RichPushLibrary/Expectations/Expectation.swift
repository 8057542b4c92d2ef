public import RichPushCore

/// `NAME.expect.json`: the settings a payload is delivered under (`given`) and what its result must contain
/// (`expect`).
public struct Expectation: Sendable, Equatable {
    /// Per-payload settings; every front end applies them the same way.
    public var given: DeliveryOverrides
    /// A partial result: every key given must match the result.
    public var expect: JSONObject
    /// Partial results per SDK profile name, checked by `replay --sdk all` (the `sdk` object).
    public var bySDK: [String: JSONObject]

    public init(given: DeliveryOverrides = DeliveryOverrides(), expect: JSONObject, bySDK: [String: JSONObject] = [:]) {
        self.given = given
        self.expect = expect
        self.bySDK = bySDK
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
        for key in root.keys where key != "given" && key != "expect" && key != "sdk" {
            throw ExpectationError("unknown key \"\(key)\"; use \"given\", \"expect\" and \"sdk\"")
        }
        var expectation = Expectation(expect: JSONObject())
        if let given = root["given"] {
            do {
                expectation.given = try DeliveryOverrides.parse(given: given)
            } catch {
                throw ExpectationError(error.message)
            }
        }
        guard case .object(let expect)? = root["expect"] else {
            throw ExpectationError("\"expect\" must be an object holding the fields the result must have")
        }
        expectation.expect = expect
        if let sdk = root["sdk"] {
            guard case .object(let profiles) = sdk else {
                throw ExpectationError(
                    "\"sdk\" must be an object of partial results by profile, like {\"firebase\": {\"style\": \"rich\"}}"
                )
            }
            for (name, value) in profiles.pairs {
                guard SDKProfile.named(name)?.name == name else {
                    throw ExpectationError(
                        "unknown profile \"sdk.\(name)\"; profiles are \(SDKProfile.names.map { "\"\($0)\"" }.joined(separator: ", "))"
                    )
                }
                guard case .object(let partial) = value else {
                    throw ExpectationError("\"sdk.\(name)\" must be an object holding the fields the result must have")
                }
                expectation.bySDK[name] = partial
            }
        }
        return expectation
    }
}

/// Why an expectation file cannot be used.
public struct ExpectationError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
