import RichPushCore
import RichPushReplay
import Testing

@Suite struct ExpectationMatcherTests {
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
