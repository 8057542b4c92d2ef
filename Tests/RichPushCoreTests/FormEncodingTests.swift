import Foundation
import RichPushCore
import Testing

/// The one reader and writer of `name=value&…` text: display receipt bodies (`+` is a space) and the fixture CDN's
/// URL queries (`+` stays a plus).
@Suite struct FormEncodingTests {
    @Test("percent escapes decode to bytes read as UTF-8, in either case of hex digit")
    func percentEscapes() {
        #expect(FormEncoding.decode("a%2Fb%2fc", plus: .space) == "a/b/c")
        #expect(FormEncoding.decode("caf%C3%A9", plus: .plus) == "café")
        #expect(FormEncoding.decode("%25", plus: .space) == "%")
        #expect(FormEncoding.decode("plain", plus: .plus) == "plain")
    }

    @Test("a bad escape or bytes that are not UTF-8: nil, or kept as written by the lenient reading")
    func badEscapes() {
        for bad in ["100%", "%zz", "%4", "%+f", "a%G1"] {
            #expect(FormEncoding.decode(bad, plus: .space) == nil, "\(bad)")
            #expect(FormEncoding.decodeLeniently(bad, plus: .plus) == bad, "\(bad)")
        }
        #expect(FormEncoding.decode("%FF", plus: .plus) == nil)
        #expect(FormEncoding.decodeLeniently("%FFok", plus: .plus) == "\u{FFFD}ok")
        #expect(FormEncoding.decodeLeniently("50%+off+%41", plus: .space) == "50% off A")
    }

    @Test("a plus is a space in a form body and a plus in a fixture URL query; %2B is a plus in both")
    func plus() {
        #expect(FormEncoding.decode("x+y", plus: .space) == "x y")
        #expect(FormEncoding.decode("image/svg+xml", plus: .plus) == "image/svg+xml")
        #expect(FormEncoding.decode("a%2Bb", plus: .space) == "a+b")
        #expect(FormEncoding.decode("a%2Bb", plus: .plus) == "a+b")
        #expect(FormEncoding.decode("a%20b", plus: .plus) == "a b")
    }

    @Test("fields keep their order and repeated names, split at the first =; empty items are skipped")
    func fields() {
        #expect(
            FormEncoding.fields(in: "a=1&&b=x=y&a=2&flag&c=")
                == [
                    .init(rawName: "a", rawValue: "1"), .init(rawName: "b", rawValue: "x=y"),
                    .init(rawName: "a", rawValue: "2"), .init(rawName: "flag", rawValue: ""),
                    .init(rawName: "c", rawValue: ""),
                ])
        #expect(FormEncoding.fields(in: "").isEmpty)
        #expect(FormEncoding.fields(in: "&").isEmpty)
    }

    @Test("removing a field by its decoded name keeps the others exactly as written")
    func removing() {
        #expect(
            FormEncoding.removing("redirect", from: "delay=6s&re%64irect=http&type=image/svg+xml", plus: .plus)
                == "delay=6s&type=image/svg+xml")
        #expect(FormEncoding.removing("redirect", from: "redirect=http&redirect=https", plus: .plus) == nil)
        #expect(FormEncoding.removing("redirect", from: nil, plus: .plus) == nil)
    }

    @Test("encoding is what a form sends and reads back to the same text in both readings")
    func encoding() {
        #expect(FormEncoding.encode("a b/c*-._~+é", plus: .space) == "a+b%2Fc*-._%7E%2B%C3%A9")
        #expect(FormEncoding.encode("a b", plus: .plus) == "a%20b")
        for text in ["push 42", "x+y=z&w", "ünïcødé ✓", ""] {
            #expect(FormEncoding.decode(FormEncoding.encode(text, plus: .space), plus: .space) == text)
            #expect(FormEncoding.decode(FormEncoding.encode(text, plus: .plus), plus: .plus) == text)
        }
    }

    @Test("a display receipt's body is push_id=, form-encoded")
    func receiptBody() throws {
        let receipt = DisplayReceipt(url: try #require(URL(string: "https://stats.example.com/r")), pushID: "a b+c")
        #expect(receipt.formBody == "push_id=a+b%2Bc")
    }
}
