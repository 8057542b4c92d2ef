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

    @Test func aRecordingsGivenIsRead() throws {
        let expectation = try Expectation.parse(
            Array(
                #"{"given": {"appState": "background", "sdk": "requirement", "headers": {"apns-push-type": "alert", "apns-priority": "5", "apns-collapse-id": "chat-1", "apns-expiration": "0", "apns-topic": "com.example.shop"}, "fixtures": "images", "recorded": {"at": "2026-11-26T06:12:03Z", "imageHost": "cdn.example.com"}}, "expect": {"rejected": "BadTopic"}}"#
                    .utf8))
        let headers = try #require(expectation.given.headers)
        #expect(
            headers
                == PushHeaders(
                    pushType: "alert", priority: 5, expiration: 0, collapseID: "chat-1", topic: "com.example.shop"))
        #expect(expectation.given.fixtures == "images")
        #expect(expectation.given.recorded == .init(at: "2026-11-26T06:12:03Z", imageHost: "cdn.example.com"))

        // The headers travel as the file's apns attributes, so the collapse id reaches the result.
        let payload = LoadedPayload(
            file: PayloadFile(path: "r.json"), bytes: Array(#"{"aps":{"alert":"x"}}"#.utf8), expectation: expectation)
        #expect(payload.deliveryInput(in: .background)?.origin.apns?.collapseID == "chat-1")
        #expect(payload.deliveryInput(in: .background)?.origin.transport == .file)
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
        (
            #"{"expect": {}, "given": {"headers": {"authorization": "x"}}}"#,
            #"unknown header "given.headers.authorization""#
        ),
        (#"{"expect": {}, "given": {"headers": {"apns-priority": "high"}}}"#, "given.headers.apns-priority must be"),
        (
            #"{"expect": {}, "given": {"request": {"endpoint": "gcm"}}}"#,
            #"given.request.endpoint must be "apns" or "fcm""#
        ),
        (#"{"expect": {}, "given": {"fixtures": ""}}"#, "given.fixtures must be a folder"),
    ])
    func badExpectationsSayWhatIsWrong(text: String, message: String) {
        #expect {
            try Expectation.parse(Array(text.utf8))
        } throws: { error in
            (error as? ExpectationError)?.message.contains(message) == true
        }
    }
}
