import RichPushCore
import RichPushReplay
import Testing

@Suite struct ExpectationTests {
    @Test func givenAndExpectAreRead() throws {
        let expectation = try Expectation.parse(
            Array(
                #"{"given": {"appState": "foreground", "imageKeys": ["data.smallImage"], "downloadTimeout": "750ms", "extensionBudget": "2s", "extensionMaxImageBytes": "20MB"}, "expect": {"style": "plain"}}"#
                    .utf8))
        #expect(expectation.appState == .foreground)
        #expect(expectation.imageKeys == ["data.smallImage"])
        #expect(expectation.downloadTimeout == .milliseconds(750))
        #expect(expectation.extensionBudget == .seconds(2))
        #expect(expectation.expect["style"] == "plain")

        let configuration = expectation.configuration(from: DeliveryConfiguration())
        #expect(configuration.imagePolicy.keyPaths == ["fcm_options.image", "notification.image", "data.smallImage"])
        #expect(configuration.downloadTimeout == .milliseconds(750))
        #expect(configuration.extensionMaxImageBytes == 20 * 1024 * 1024)
        #expect(configuration.maxImageBytes == 10 * 1024 * 1024, "the iOS limit does not move")
    }

    @Test(arguments: [
        (
            #"{"expect": {"style": "rich"}, "given": {"appState": "asleep"}}"#,
            #"given.appState must be "foreground", "background" or "closed", not "asleep""#
        ),
        (#"{"given": {"state": "closed"}, "expect": {}}"#, #"unknown key "given.state""#),
        (#"{"expect": "rich"}"#, #""expect" must be an object"#),
        (#"{"expected": {}}"#, #"unknown key "expected""#),
        (#"{"expect": {}, "given": {"downloadTimeout": "soon"}}"#, "given.downloadTimeout must be a duration"),
        (#"{"expect": {"style": "rich",}}"#, "not valid JSON at line 1, column 29"),
        (
            #"{"expect": {}, "given": {"extensionMaxImageBytes": "lots"}}"#,
            "given.extensionMaxImageBytes must be a size"
        ),
    ])
    func badExpectationsSayWhatIsWrong(text: String, message: String) {
        #expect {
            try Expectation.parse(Array(text.utf8))
        } throws: { error in
            (error as? ExpectationError)?.message.contains(message) == true
        }
    }

    @Test func matchingIsPartialForObjectsAndNamesTheField() {
        let actual: JSONValue = [
            "style": "plain", "fallback": ["reason": "timeout", "detail": "no complete image within 5 s"],
            "attachment": nil, "timeline": [["event": "received"], ["event": "presented"]],
        ]
        #expect(
            ExpectationMatcher.mismatches(
                expected: ["style": "plain", "fallback": ["reason": "timeout"]], actual: actual
            ).isEmpty)
        #expect(ExpectationMatcher.mismatches(expected: ["attachment": nil], actual: actual).isEmpty)

        let wrong = ExpectationMatcher.mismatches(
            expected: ["fallback": ["reason": "httpStatus"], "attachment": ["format": "png"], "hint": "x"],
            actual: actual)
        #expect(
            wrong.map(\.description) == [
                #"fallback.reason: expected "httpStatus", got "timeout""#,
                #"attachment: expected {"format":"png"}, got null"#,
                #"hint: expected "x", got no such field"#,
            ])

        let arrays = ExpectationMatcher.mismatches(
            expected: ["timeline": [["event": "received"], ["event": "contentHandlerCalled"]]], actual: actual)
        #expect(arrays.map(\.field) == ["timeline[1].event"])
    }
}
