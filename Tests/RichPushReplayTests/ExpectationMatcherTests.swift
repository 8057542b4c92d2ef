import RichPushCore
import RichPushReplay
import Testing

@Suite struct ExpectationMatcherTests {
    @Test func rejectedIsTheReasonTheResultWasRefusedFor() {
        let refused: JSONValue = ["delivered": false, "rejection": ["reason": "BadDeviceToken", "status": 400]]
        #expect(ExpectationMatcher.mismatches(expected: ["rejected": "BadDeviceToken"], actual: refused).isEmpty)
        #expect(
            ExpectationMatcher.mismatches(expected: ["rejected": "BadTopic"], actual: refused).map(\.description) == [
                #"rejected: expected "BadTopic", got "BadDeviceToken""#
            ])
        let delivered: JSONValue = ["delivered": true, "rejection": nil, "style": "plain"]
        #expect(
            ExpectationMatcher.mismatches(expected: ["rejected": "BadTopic"], actual: delivered).map(\.description) == [
                #"rejected: expected "BadTopic", got null"#
            ])
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
