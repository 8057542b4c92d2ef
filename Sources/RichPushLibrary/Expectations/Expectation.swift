public import RichPushCore

/// `NAME.expect.json`: the settings a payload is delivered under (`given`) and what its result must contain
/// (`expect`).
public struct Expectation: Sendable, Equatable {
    /// Per-payload settings; every front end applies them the same way.
    public var given: PayloadSettings
    /// A partial result: every key given must match the result.
    public var expect: JSONObject

    public init(given: PayloadSettings = PayloadSettings(), expect: JSONObject) {
        self.given = given
        self.expect = expect
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
            do {
                expectation.given = try PayloadSettings.parse(given: given)
            } catch {
                throw ExpectationError(error.message)
            }
        }
        guard case .object(let expect)? = root["expect"] else {
            throw ExpectationError("\"expect\" must be an object holding the fields the result must have")
        }
        expectation.expect = expect
        return expectation
    }
}

/// Why an expectation file cannot be used.
public struct ExpectationError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
