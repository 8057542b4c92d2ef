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

    @Test("plain strings are written whole; quotes, backslashes, DEL and C1 controls are still escaped")
    func writerEscapesWhatNeedsIt() {
        #expect(JSONWriter.string("plain 新品 🎉") == #""plain 新品 🎉""#)
        #expect(JSONWriter.string("a\"b\\c") == #""a\"b\\c""#)
        #expect(JSONWriter.string("del\u{7F} nel\u{85} é") == #""del\u007f nel\u0085 é""#)
    }
}

@Suite struct JSONParserHostileInputTests {
    func syntaxError(_ bytes: [UInt8]) -> JSONParser.SyntaxError? {
        do {
            _ = try JSONParser.parse(bytes)
            return nil
        } catch {
            return error
        }
    }

    @Test func invalidUTF8InAStringIsRejectedNamingTheByte() throws {
        // {"a":"x<FF>y"}: the bad byte is the 8th.
        let error = try #require(syntaxError(Array(#"{"a":"x"#.utf8) + [0xFF] + Array(#"y"}"#.utf8)))
        #expect(error.message == "invalid UTF-8 at byte 8 (0xFF); APNs takes only UTF-8 JSON")
        #expect(error.byte == 8)
        #expect(error.line == 1 && error.column == 8)
    }

    @Test func invalidUTF8IsNotDecodedWithReplacementCharacters() throws {
        // Latin-1 "café", as a Windows editor might save it.
        let latin1: [UInt8] = Array(#"{"aps": {"alert": "caf"#.utf8) + [0xE9] + Array(#""}}"#.utf8)
        let error = try #require(throws: PayloadRejection.self) { try PayloadDecoder().decode(latin1) }
        #expect(error.reason == .malformedJSON)
        #expect(
            error.detail
                == "not valid JSON at line 1, column 23: invalid UTF-8 at byte 23 (0xE9 0x22); APNs takes only UTF-8 JSON"
        )
    }

    @Test func invalidUTF8OutsideAStringIsNamedToo() throws {
        // {"aps":{"alert":<FF>}}: byte 17.
        let error = try #require(syntaxError(Array(#"{"aps":{"alert":"#.utf8) + [0xFF, 0x7D, 0x7D]))
        #expect(error.message.hasPrefix("invalid UTF-8 at byte 17 (0xFF)"))
    }

    @Test(
        arguments: [
            [0xC0, 0xAF], [0xC1, 0xBF], [0xE0, 0x9F, 0xBF], [0xED, 0xA0, 0x80], [0xED, 0xBF, 0xBF],
            [0xF0, 0x8F, 0xBF, 0xBF], [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80], [0x80], [0xBF],
            [0xC2], [0xE1, 0x80], [0xF1, 0x80, 0x80], [0xFE], [0xFF],
        ] as [[UInt8]])
    func illFormedSequencesAreRejected(sequence: [UInt8]) throws {
        let error = try #require(syntaxError([0x22] + sequence + [0x22]))
        #expect(error.message.hasPrefix("invalid UTF-8 at byte 2 ("), "\(error)")
    }

    @Test(
        arguments: [
            ([0xC2, 0x80], 0x80), ([0xDF, 0xBF], 0x7FF), ([0xE0, 0xA0, 0x80], 0x800), ([0xED, 0x9F, 0xBF], 0xD7FF),
            ([0xEE, 0x80, 0x80], 0xE000), ([0xEF, 0xBF, 0xBF], 0xFFFF), ([0xF0, 0x90, 0x80, 0x80], 0x10000),
            ([0xF4, 0x8F, 0xBF, 0xBF], 0x10FFFF),
        ] as [([UInt8], UInt32)])
    func wellFormedSequencesAtTheEdgesAreAccepted(sequence: [UInt8], scalar: UInt32) throws {
        let value = try JSONParser.parse([0x22] + sequence + [0x22])
        #expect(value == .string(String(Unicode.Scalar(scalar)!)))
    }

    @Test func everyTwoByteStringAgreesWithTheStandardLibrarysUTF8Validation() {
        var disagreements: [String] = []
        for first in 0...255 {
            for second in 0...255 {
                let content: [UInt8] = [UInt8(first), UInt8(second)]
                // Escapes have tests of their own.
                if content.contains(0x5C) { continue }
                let expected =
                    String(validating: content, as: UTF8.self) != nil
                    && !content.contains { $0 < 0x20 || $0 == 0x22 }
                let accepted = (try? JSONParser.parse([0x22] + content + [0x22])) != nil
                if accepted != expected { disagreements.append("\(content)") }
            }
        }
        #expect(disagreements.isEmpty)
    }

    @Test(arguments: [
        (#""\ud800""#, "\\uD800 is a lone UTF-16 surrogate"),
        (#""\udc00 x""#, "\\uDC00 is a lone UTF-16 surrogate"),
        (#""\ud83d\u0041""#, "\\uD83D is a lone UTF-16 surrogate: \\u0041 is not a low surrogate"),
    ])
    func loneSurrogatesAreRejected(text: String, message: String) throws {
        let error = try #require(syntaxError(Array(text.utf8)))
        #expect(error.message.hasPrefix(message), "\(error)")
        #expect(error.column == 2)
    }

    @Test func utf16IsRejectedAsNotUTF8() throws {
        let utf16 = Array(#"{"aps": {}}"#.utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        for bytes in [utf16, [0xFF, 0xFE] + utf16] {
            let error = try #require(syntaxError(bytes))
            #expect(error.message == "the file is UTF-16 or UTF-32, not UTF-8; APNs takes only UTF-8 JSON")
        }
        #expect(try JSONParser.parse([0xEF, 0xBB, 0xBF] + Array("{}".utf8)) == .object([:]))
    }

    @Test func charactersFromTheFileAreNeverEchoedInMessages() throws {
        // U+009B is a one-byte CSI for a terminal; a stray "é" outside a string is named by code point.
        let csi = try #require(syntaxError(Array(#"{"a": "#.utf8) + [0xC2, 0x9B] + Array("2J}".utf8)))
        #expect(csi.message == "unexpected character U+009B, expected a value")
        let escape = try #require(syntaxError(Array(#""\"#.utf8) + [0xC2, 0x9B, 0x22]))
        #expect(escape.message == "invalid escape sequence \\ and byte 0xC2 in a string")
        #expect(!csi.description.unicodeScalars.contains { $0.value >= 0x7F || $0.value < 0x20 })
    }

    @Test func nestingIsLimitedTo512LevelsWithoutExhaustingTheStack() throws {
        func arrays(_ depth: Int) -> [UInt8] {
            Array(repeating: 0x5B, count: depth) + Array(repeating: 0x5D, count: depth)
        }
        func objects(_ depth: Int) -> [UInt8] {
            Array(String(repeating: #"{"a":"#, count: depth).utf8) + [0x31] + Array(repeating: 0x7D, count: depth)
        }
        _ = try JSONParser.parse(arrays(512))
        _ = try JSONParser.parse(objects(512))
        for bytes in [arrays(513), objects(513), arrays(1_000_000), Array(repeating: 0x5B, count: 1_000_000)] {
            let error = try #require(syntaxError(bytes))
            #expect(error.message == "nesting deeper than 512 levels")
        }
    }

    @Test func aPayloadNestedToTheLimitIsDecodedAndOneLevelDeeperIsMalformed() throws {
        // The root object is level 1, so 511 arrays inside it reach the limit.
        func payload(arrays: Int) -> [UInt8] {
            Array(#"{"aps": {"alert": "deep"}, "x": "#.utf8) + Array(repeating: 0x5B, count: arrays)
                + Array(repeating: 0x5D, count: arrays) + [0x7D]
        }
        let request = try PayloadDecoder().decode(payload(arrays: 511))
        #expect(request.content.body == "deep")
        let error = try #require(throws: PayloadRejection.self) { try PayloadDecoder().decode(payload(arrays: 512)) }
        #expect(error.reason == .malformedJSON)
        #expect(error.detail.hasSuffix("nesting deeper than 512 levels"))
    }

    @Test(arguments: ["1e400", "-1e400", "1.5e+9999", "123123e100000"])
    func numbersBeyondDoubleAreRejectedNamingTheNumber(number: String) throws {
        let error = try #require(syntaxError(Array("[\(number)]".utf8)))
        #expect(error.message.hasPrefix("the number \(number) is out of range"))
        #expect(error.column == 2)
    }

    @Test func aNumberBeyondDoubleIsRejectedEvenWhereADuplicateKeyReplacesIt() throws {
        // Found by the differential fuzzer: Foundation checks a number's range only in values it keeps, so it
        // accepts this; the file is still defective, and RichPush says so.
        let error = try #require(syntaxError(Array(#"{"expect": {"height": 481e4000}, "expect": {}}"#.utf8)))
        #expect(error.message.hasPrefix("the number 481e4000 is out of range"))
        #expect(error.column == 23)
    }

    @Test func aVeryLongNumberIsShortenedInTheMessage() throws {
        let error = try #require(syntaxError(Array(("[1" + String(repeating: "0", count: 400) + "]").utf8)))
        #expect(error.message.hasPrefix("the number 100000000000...00000000 is out of range"))
    }

    @Test func numbersThatOnlyLosePrecisionAreKept() throws {
        #expect(
            try JSONParser.parse(Array("[1e-400, 100000000000000000000, 1.7976931348623157e308]".utf8))
                == [0, 1e20, .number(Double.greatestFiniteMagnitude)])
    }

    @Test func mutableContentBeyondDoubleIsAMalformedPayloadNotANull() {
        // Before, 1e400 became infinity and the hint said "aps.mutable-content is null (a number)".
        let bytes = Array(#"{"aps": {"alert": "Sale", "mutable-content": 1e400}}"#.utf8)
        #expect {
            try PayloadDecoder().decode(bytes)
        } throws: { error in
            let rejection = error as? PayloadRejection
            return rejection?.reason == .malformedJSON
                && rejection?.detail.hasSuffix(
                    "line 1, column 46: the number 1e400 is out of range: beyond the largest 64-bit floating-point number (about 1.8e308)"
                ) == true
        }
    }
}
