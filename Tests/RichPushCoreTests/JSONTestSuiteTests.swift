import Foundation
import RichPushCore
import Testing

/// Where the JSONTestSuite parsing corpus is: CI clones the repository with `shared/` beside it.
enum JSONTestSuiteCorpus {
    static let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("../shared/testdata/JSONTestSuite/test_parsing")
        .standardizedFileURL.path
    static var exists: Bool { FileManager.default.fileExists(atPath: path) }
    static let missingReason: Comment =
        "JSONTestSuite corpus not found at ../shared/testdata/JSONTestSuite (beside the repository)"

    static func files(_ prefix: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [])
            .filter { $0.hasPrefix(prefix) && $0.hasSuffix(".json") }.sorted()
    }

    static func parse(_ name: String) throws -> Result<JSONValue, JSONParser.SyntaxError> {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path + "/" + name)))
        return Result { () throws(JSONParser.SyntaxError) in try JSONParser.parse(bytes) }
    }
}

/// The parsing corpus of JSONTestSuite: every `y_` file is accepted, every `n_` file rejected, and every `i_`
/// file (either outcome is allowed by RFC 8259) has the outcome decided in ``JSONTestSuiteTests/decisions``.
/// Skipped, with the reason, when the corpus is not beside the repository.
@Suite(.enabled(if: JSONTestSuiteCorpus.exists, JSONTestSuiteCorpus.missingReason))
struct JSONTestSuiteTests {
    /// What the parser does with each implementation-defined (`i_`) file, and why.
    /// `rejectedWith` is a part of the error message; nil means the file is accepted.
    static let decisions: [String: (rejectedWith: String?, why: String)] = [
        // Numbers: a value that rounds to zero or loses digits is kept (as Foundation does); one that is
        // beyond Double has no value to show, and Foundation refuses it too.
        "i_number_double_huge_neg_exp.json": (nil, "123.456e-789 underflows to 0, as in Foundation"),
        "i_number_huge_exp.json": ("out of range", "0.4e00669…006 overflows Double; Foundation refuses it"),
        "i_number_neg_int_huge_exp.json": ("out of range", "-1e+9999 overflows Double; Foundation refuses it"),
        "i_number_pos_double_huge_exp.json": ("out of range", "1.5e+9999 overflows Double; Foundation refuses it"),
        "i_number_real_neg_overflow.json": ("out of range", "-123123e100000 overflows Double"),
        "i_number_real_pos_overflow.json": ("out of range", "123123e100000 overflows Double"),
        "i_number_real_underflow.json": (nil, "123e-10000000 underflows to 0, as in Foundation"),
        "i_number_too_big_neg_int.json": (nil, "rounded to the nearest Double, as in Foundation"),
        "i_number_too_big_pos_int.json": (nil, "1e20 is a Double exactly"),
        "i_number_very_big_negative_int.json": (nil, "rounded to the nearest Double, as in Foundation"),
        // Escaped UTF-16 surrogates that do not pair up: a Swift string cannot hold them, Foundation refuses
        // them, and replacing them with U+FFFD would show text the device never shows.
        "i_object_key_lone_2nd_surrogate.json": ("lone UTF-16 surrogate", "\\uDFAA without a high surrogate"),
        "i_string_1st_surrogate_but_2nd_missing.json": ("lone UTF-16 surrogate", "\\uDADA at the end"),
        "i_string_1st_valid_surrogate_2nd_invalid.json": ("lone UTF-16 surrogate", "\\uD888 then \\u1234"),
        "i_string_incomplete_surrogate_and_escape_valid.json": ("lone UTF-16 surrogate", "\\uD800 then \\n"),
        "i_string_incomplete_surrogate_pair.json": ("lone UTF-16 surrogate", "\\uDd1e without a high surrogate"),
        "i_string_incomplete_surrogates_escape_valid.json": ("lone UTF-16 surrogate", "\\uD800\\uD800"),
        "i_string_invalid_lonely_surrogate.json": ("lone UTF-16 surrogate", "\\ud800 alone"),
        "i_string_invalid_surrogate.json": ("lone UTF-16 surrogate", "\\ud800 then abc"),
        "i_string_inverted_surrogates_U+1D11E.json": ("lone UTF-16 surrogate", "low before high"),
        "i_string_lone_second_surrogate.json": ("lone UTF-16 surrogate", "\\uDFAA alone"),
        // Not UTF-8: APNs takes only UTF-8 JSON, so these are malformed payloads, never decoded with U+FFFD.
        "i_string_UTF-16LE_with_BOM.json": ("UTF-16 or UTF-32", "UTF-16 with a byte order mark"),
        "i_string_utf16BE_no_BOM.json": ("UTF-16 or UTF-32", "UTF-16 big-endian"),
        "i_string_utf16LE_no_BOM.json": ("UTF-16 or UTF-32", "UTF-16 little-endian"),
        "i_string_UTF-8_invalid_sequence.json": ("invalid UTF-8 at byte 8", "0xFA is never UTF-8"),
        "i_string_UTF8_surrogate_U+D800.json": ("invalid UTF-8 at byte 3", "an encoded surrogate (CESU-8)"),
        "i_string_invalid_utf-8.json": ("invalid UTF-8 at byte 3", "0xFF is never UTF-8"),
        "i_string_iso_latin_1.json": ("invalid UTF-8 at byte 3", "Latin-1 é"),
        "i_string_lone_utf8_continuation_byte.json": ("invalid UTF-8 at byte 3", "a continuation byte alone"),
        "i_string_not_in_unicode_range.json": ("invalid UTF-8 at byte 3", "above U+10FFFF"),
        "i_string_overlong_sequence_2_bytes.json": ("invalid UTF-8 at byte 3", "overlong encoding of '/'"),
        "i_string_overlong_sequence_6_bytes.json": ("invalid UTF-8 at byte 3", "6-byte form, not UTF-8 since 2003"),
        "i_string_overlong_sequence_6_bytes_null.json": ("invalid UTF-8 at byte 3", "overlong encoding of NUL"),
        "i_string_truncated-utf-8.json": ("invalid UTF-8 at byte 3", "a 3-byte lead then 0xFF"),
        // Structure.
        "i_structure_500_nested_arrays.json": (nil, "500 levels is within the 512 that Foundation also allows"),
        "i_structure_UTF-8_BOM_empty_object.json": (nil, "a UTF-8 byte order mark is skipped; Xcode writes one"),
    ]

    @Test func theCorpusIsComplete() {
        // A partial checkout must not pass quietly.
        #expect(JSONTestSuiteCorpus.files("y_").count == 95)
        #expect(JSONTestSuiteCorpus.files("n_").count == 188)
        #expect(Set(JSONTestSuiteCorpus.files("i_")) == Set(Self.decisions.keys))
    }

    @Test(arguments: JSONTestSuiteCorpus.files("y_"))
    func mustAccept(_ name: String) throws {
        if case .failure(let error) = try JSONTestSuiteCorpus.parse(name) {
            Issue.record("\(name) was rejected: \(error)")
        }
    }

    @Test(arguments: JSONTestSuiteCorpus.files("n_"))
    func mustReject(_ name: String) throws {
        if case .success(let value) = try JSONTestSuiteCorpus.parse(name) {
            Issue.record("\(name) was accepted as \(JSONWriter.string(value).prefix(80))")
        }
    }

    @Test(arguments: JSONTestSuiteCorpus.files("i_"))
    func implementationDefinedOutcomeIsTheDecidedOne(_ name: String) throws {
        let decision = try #require(Self.decisions[name], "no decision recorded for \(name)")
        switch (try JSONTestSuiteCorpus.parse(name), decision.rejectedWith) {
        case (.success, nil): break
        case (.failure(let error), let expected?):
            #expect(error.message.contains(expected), "\(name): \(error)")
        case (.success(let value), let expected?):
            Issue.record(
                "\(name) was accepted as \(JSONWriter.string(value).prefix(80)); decided: reject (\(expected))")
        case (.failure(let error), nil):
            Issue.record("\(name) was rejected (\(error)); decided: accept")
        }
    }
}
