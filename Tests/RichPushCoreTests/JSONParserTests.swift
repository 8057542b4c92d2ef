import RichPushCore
import Testing

@Suite struct JSONParserTests {
    @Test func keepsNumbersApartFromBooleansAndKeyOrder() throws {
        let value = try JSONParser.parse(Array(#"{"b": 1, "a": true, "c": [1.5, null, "x"]}"#.utf8))
        #expect(value["b"] == .number(1))
        #expect(value["a"] == .bool(true))
        #expect(value["c"] == [1.5, nil, "x"])
        #expect(value.objectValue?.keys == ["b", "a", "c"])
    }

    @Test func decodesEscapesAndSurrogatePairs() throws {
        let value = try JSONParser.parse(Array(#""tab\t quote\" \u00e9 \ud83d\ude80 \u4f60""#.utf8))
        #expect(value == .string("tab\t quote\" é 🚀 你"))
    }

    @Test(arguments: [
        ("{\"a\": 1,}", 1, 9),
        ("{\n  \"title\": \"你好\",\n  \"body\": oops\n}", 3, 11),
        ("[1, 2", 1, 6),
        ("", 1, 1),
        ("{\"a\": 01}", 1, 8),
        ("{\"a\": \"x\" \"b\"}", 1, 11),
    ])
    func reportsLineAndColumn(text: String, line: Int, column: Int) {
        #expect {
            _ = try JSONParser.parse(Array(text.utf8))
        } throws: { error in
            let syntax = error as? JSONParser.SyntaxError
            return syntax?.line == line && syntax?.column == column
        }
    }

    @Test func writerRoundTripsTextKeepingOrderAndEscapingControls() throws {
        let original: JSONValue = ["z": "line\nbreak \u{1b}[2J", "a": 3, "m": [true, nil, 2.5]]
        let text = JSONWriter.string(original)
        #expect(text == #"{"z":"line\nbreak \u001b[2J","a":3,"m":[true,null,2.5]}"#)
        #expect(try JSONParser.parse(Array(text.utf8)) == original)
    }
}
