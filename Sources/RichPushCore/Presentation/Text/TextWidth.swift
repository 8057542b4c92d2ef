/// How many terminal columns text takes, measured per grapheme (`Character`), never per byte or scalar.
///
/// East Asian wide and fullwidth characters and emoji take two columns, combining marks and other
/// zero-width scalars none. The table is built in rather than taken from the C library's `wcwidth`,
/// which depends on the process locale and would make layout differ between tests and the terminal.
public enum TextWidth {
    /// Columns one grapheme takes: 0, 1 or 2.
    public static func of(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        let value = first.value
        if value >= 0x20 && value < 0x7F && scalars.count == 1 { return 1 }
        if isZeroWidth(first) {
            // A grapheme that starts with a zero-width scalar (e.g. a lone combining mark) adds nothing.
            return 0
        }
        if isRegionalIndicator(first) { return 2 }
        if first.properties.isEmojiPresentation { return 2 }
        if first.properties.isEmoji && scalars.contains(where: { $0.value == 0xFE0F }) { return 2 }
        if isWide(value) { return 2 }
        return 1
    }

    /// Columns a string takes.
    public static func of(_ text: some StringProtocol) -> Int {
        var total = 0
        for character in text { total += of(character) }
        return total
    }

    /// Scalars that never advance the cursor on their own.
    public static func isZeroWidth(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format:
            // Soft hyphen is a format character that terminals draw.
            return value != 0x00AD
        default:
            break
        }
        // Hangul medial vowels and final consonants join the preceding syllable.
        if (0x1160...0x11FF).contains(value) || (0xD7B0...0xD7FF).contains(value) { return true }
        if (0xFE00...0xFE0F).contains(value) || (0xE0100...0xE01EF).contains(value) { return true }
        return false
    }

    public static func isRegionalIndicator(_ scalar: Unicode.Scalar) -> Bool {
        (0x1F1E6...0x1F1FF).contains(scalar.value)
    }

    /// East Asian Width W and F ranges (Unicode 15) outside the emoji, which `isEmojiPresentation` covers.
    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x2329...0x232A, 0x2E80...0x2E99, 0x2E9B...0x2EF3, 0x2F00...0x2FD5,
        0x2FF0...0x2FFF, 0x3000...0x303E, 0x3041...0x3096, 0x3099...0x30FF, 0x3105...0x312F,
        0x3131...0x318E, 0x3190...0x31E3, 0x31EF...0x321E, 0x3220...0x3247, 0x3250...0x4DBF,
        0x4E00...0xA48C, 0xA490...0xA4C6, 0xA960...0xA97C, 0xAC00...0xD7A3, 0xF900...0xFAFF,
        0xFE10...0xFE19, 0xFE30...0xFE52, 0xFE54...0xFE66, 0xFE68...0xFE6B, 0xFF01...0xFF60,
        0xFFE0...0xFFE6, 0x16FE0...0x16FE4, 0x16FF0...0x16FF1, 0x17000...0x187F7, 0x18800...0x18CD5,
        0x18D00...0x18D08, 0x1AFF0...0x1B2FB, 0x1F200...0x1F202, 0x1F210...0x1F23B, 0x1F240...0x1F248,
        0x1F250...0x1F251, 0x1F260...0x1F265, 0x20000...0x2FFFD, 0x30000...0x3FFFD,
    ]

    static func isWide(_ value: UInt32) -> Bool {
        guard value >= 0x1100 else { return false }
        var low = 0
        var high = wideRanges.count - 1
        while low <= high {
            let middle = (low + high) / 2
            let range = wideRanges[middle]
            if value < range.lowerBound {
                high = middle - 1
            } else if value > range.upperBound {
                low = middle + 1
            } else {
                return true
            }
        }
        return false
    }
}
