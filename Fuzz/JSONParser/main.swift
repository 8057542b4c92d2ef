// libFuzzer target: RichPushCore's JSON parser, differential against Foundation's JSONSerialization.
//
// Both parsers must agree on accept/reject, except for the differences the project intends (Foundation takes
// trailing commas and UTF-16/UTF-32 text, and checks the range of a number only in values it keeps; see
// docs/fuzzing.md). An accepted document must also survive a
// round trip through JSONWriter, and an error message must never carry a control character from the input.
import Foundation
import RichPushCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONParser(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size))
    let ours: Result<JSONValue, JSONParser.SyntaxError> = Result { () throws(JSONParser.SyntaxError) in
        try JSONParser.parse(bytes)
    }
    let foundationAccepts =
        (try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])) != nil

    switch ours {
    case .success(let value):
        for pretty in [false, true] {
            let text = JSONWriter.string(value, pretty: pretty)
            guard let again = try? JSONParser.parse(Array(text.utf8)), again == value else {
                fail("JSONWriter output does not parse back to the same value: \(text.prefix(200))", bytes)
            }
        }
        if !foundationAccepts {
            fail("RichPush accepts, JSONSerialization rejects", bytes)
        }
    case .failure(let error):
        if error.description.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) {
            fail("an error message carries a control character: \(error.description.debugDescription)", bytes)
        }
        if foundationAccepts && !isIntendedDifference(bytes, error) {
            fail("RichPush rejects (\(error)), JSONSerialization accepts", bytes)
        }
    }
    return 0
}

/// Inputs Foundation accepts and RichPush rejects on purpose.
func isIntendedDifference(_ bytes: [UInt8], _ error: JSONParser.SyntaxError) -> Bool {
    // Not UTF-8: Foundation detects UTF-16 and UTF-32; APNs takes only UTF-8.
    if error.message.hasPrefix("the file is UTF-16 or UTF-32") { return true }
    // Undo each difference where RichPush stops, until RichPush accepts or stops at something else:
    // - a trailing comma, which Foundation skips: remove it;
    // - a number beyond Double, which Foundation checks only in values it keeps (not in one that a later
    //   duplicate key replaces): write 0 instead.
    var text = bytes
    var current = error
    for _ in 0...bytes.count {
        let position = current.byte - 1
        if isTrailingComma(text, current), let comma = previousNonWhitespace(text, before: position) {
            text.remove(at: comma)
        } else if current.message.hasPrefix("the number "), current.message.contains(" is out of range") {
            var end = position
            while end < text.count, Array("0123456789+-.eE".utf8).contains(text[end]) { end += 1 }
            text.replaceSubrange(position..<end, with: [UInt8(ascii: "0")])
        } else {
            return false
        }
        do {
            _ = try JSONParser.parse(text)
            return true
        } catch {
            current = error
        }
    }
    return false
}

func isTrailingComma(_ bytes: [UInt8], _ error: JSONParser.SyntaxError) -> Bool {
    guard
        error.message == "unexpected ']', expected a value"
            || error.message == "unexpected '}', expected a key in double quotes",
        let comma = previousNonWhitespace(bytes, before: error.byte - 1)
    else { return false }
    return bytes[comma] == UInt8(ascii: ",")
}

func previousNonWhitespace(_ bytes: [UInt8], before index: Int) -> Int? {
    var position = index - 1
    while position >= 0, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[position]) { position -= 1 }
    return position >= 0 ? position : nil
}

func fail(_ message: String, _ bytes: [UInt8]) -> Never {
    let hex = bytes.prefix(256).map { String($0, radix: 16) }.joined(separator: " ")
    FileHandle.standardError.write(Data("JSONParser fuzz: \(message)\ninput (hex): \(hex)\n".utf8))
    abort()
}
