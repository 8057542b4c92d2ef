import RichPushCore
import RichPushLibrary
import Testing

@Suite struct ExpectationTests {
    @Test func givenAndExpectAreRead() throws {
        let expectation = try Expectation.parse(
            Array(
                #"{"given": {"appState": "foreground", "imageKeys": ["data.smallImage"], "downloadTimeout": "750ms", "extensionBudget": "2s", "extensionMaxImageBytes": "20MB"}, "expect": {"style": "plain"}}"#
                    .utf8))
        #expect(expectation.given.appState == .foreground)
        #expect(expectation.given.imageKeys == ["data.smallImage"])
        #expect(expectation.given.downloadTimeout == .milliseconds(750))
        #expect(expectation.given.extensionBudget == .seconds(2))
        #expect(expectation.expect["style"] == "plain")

        let configuration = expectation.given.applied(to: DeliveryConfiguration())
        #expect(configuration.imagePolicy.keyPaths == ["fcm_options.image", "notification.image", "data.smallImage"])
        #expect(configuration.downloadTimeout == .milliseconds(750))
        #expect(configuration.downloadMaxBytes == 20 * 1024 * 1024)
        #expect(configuration.attachmentMaxBytes == 10 * 1024 * 1024, "the iOS limit does not move")
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
}
