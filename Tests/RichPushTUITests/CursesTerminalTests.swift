import Testing

@testable import RichPushTUI

/// What the curses backend hands the terminal for graphemes whose width terminals disagree on.
@Suite struct CursesTerminalTests {
    private func scalars(_ text: String) -> [UInt32] {
        var scalars: [UInt32] = []
        CursesTerminal.terminalScalars(of: Character(text), into: &scalars)
        return scalars
    }

    @Test func combiningMarksStayWithTheirBase() {
        #expect(scalars("e\u{301}") == [0x65, 0x301])
        #expect(scalars("中") == [0x4E2D])
    }

    @Test func emojiSequencesAreReducedToTheirFirstScalar() {
        #expect(scalars("👨‍👩‍👧") == [0x1F468], "no joiner is ever sent")
        #expect(scalars("❤️") == [0x2764], "no variation selector")
        #expect(scalars("👍🏽") == [0x1F44D], "no skin-tone modifier")
    }

    @Test func flagsBecomeRegionCodes() {
        #expect(CursesTerminal.flagLetters("🇯🇵") == [0x4A, 0x50])
        #expect(CursesTerminal.flagLetters("J") == nil)
    }
}
