import RichPushCore
import Testing

@testable import RichPushTUI

@Suite struct TextWidthTests {
    @Test(
        arguments: [
            ("a", 1), ("é", 1), ("e\u{301}", 1), ("中", 2), ("あ", 2), ("한", 2), ("Ａ", 2), ("😀", 2), ("👍🏽", 2),
            ("👨‍👩‍👧", 2), ("🇯🇵", 2), ("❤️", 2), ("❤", 1), ("1️⃣", 2), ("\u{301}", 0), ("\u{200B}", 0), ("…", 1),
            ("─", 1),
        ] as [(String, Int)])
    func graphemeWidth(text: String, columns: Int) {
        #expect(text.count == 1)
        #expect(TextWidth.of(Character(text)) == columns)
    }

    @Test func stringWidthAddsGraphemes() {
        #expect(TextWidth.of("新品上市 🎉") == 11)
        #expect(TextWidth.of("abc") == 3)
        #expect(TextWidth.of("") == 0)
    }

    @Test func truncateCountsColumnsNotBytes() {
        #expect(TextLayout.truncate("新品上市春季", toWidth: 7) == "新品上…")
        #expect(TextWidth.of(TextLayout.truncate("新品上市春季", toWidth: 6)) <= 6)
        #expect(TextLayout.truncate("hello", toWidth: 5) == "hello")
        #expect(TextLayout.truncate("hello!", toWidth: 5) == "hell…")
        #expect(TextLayout.truncate("👨‍👩‍👧👨‍👩‍👧", toWidth: 3) == "👨‍👩‍👧…")
    }

    @Test func wrapBreaksAtSpacesAndSplitsLongWords() {
        #expect(TextLayout.wrap("the quick brown fox", width: 10) == ["the quick", "brown fox"])
        #expect(TextLayout.wrap("abcdefghij", width: 4) == ["abcd", "efgh", "ij"])
        #expect(TextLayout.wrap("中文中文中", width: 4) == ["中文", "中文", "中"])
        #expect(TextLayout.wrap("", width: 4) == [""])
    }
}

@Suite struct TextSanitizerTests {
    @Test func escapeSequencesAreRemovedWhole() {
        #expect(TextSanitizer.singleLine("a\u{1B}[2Jb") == "ab")
        #expect(TextSanitizer.singleLine("a\u{1B}[38;5;196mred\u{1B}[0m") == "ared")
        #expect(TextSanitizer.singleLine("\u{1B}]0;title\u{7}after") == "after")
        #expect(TextSanitizer.singleLine("\u{1B}]8;;http://x\u{1B}\\link\u{1B}]8;;\u{1B}\\") == "link")
        #expect(TextSanitizer.singleLine("x\u{1B}Pq#0;2;0;0;0\u{1B}\\y") == "xy")
        #expect(TextSanitizer.singleLine("\u{9B}31mC1 CSI") == "C1 CSI")
        #expect(TextSanitizer.singleLine("\u{1B}(Bcharset") == "charset")
        #expect(TextSanitizer.singleLine("dangling\u{1B}") == "dangling")
    }

    @Test func controlsBecomeVisibleReplacements() {
        #expect(TextSanitizer.singleLine("bell\u{7}nul\u{0}del\u{7F}c1\u{85}x\u{90}") == "bell�nul�del�c1 x")
    }

    @Test func newlinesAndTabsFlattenInPreviews() {
        #expect(TextSanitizer.singleLine("one\r\ntwo\rthree\nfour\tfive  \n six") == "one two three four five six")
        #expect(TextSanitizer.singleLine("\n\n  padded \n") == "padded")
    }

    @Test func fullTextKeepsLineBreaks() {
        #expect(
            TextSanitizer.lines("one\r\ntwo\rthree\u{2028}four\n\nsix\tx") == [
                "one", "two", "three", "four", "", "six x",
            ])
    }

    @Test func bidiOverridesAreRemoved() {
        #expect(TextSanitizer.singleLine("a\u{202E}cba\u{202C} \u{2066}iso\u{2069}\u{200F}") == "acba iso")
    }

    @Test func emojiJoinersAndVariationSelectorsSurvive() {
        let family = "👨‍👩‍👧 ❤️ 🇯🇵 e\u{301}"
        #expect(TextSanitizer.singleLine(family) == family)
    }
}
