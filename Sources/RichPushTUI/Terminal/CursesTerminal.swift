import RichPushCore
import CNCursesShim
import Glibc
import RichPushGraphics

/// The only code that talks to curses: opens and restores the terminal, reads keys without waiting,
/// and copies a ``CellGrid`` to the screen. Everything it draws went through the grid, so nothing
/// unsanitised reaches the terminal.
///
/// Not thread-safe, as curses is not: the run loop uses it from one task at a time.
final class CursesTerminal: TerminalBackend {
    private var isOpen = false
    private(set) var hasColors = false
    /// How many colours the terminal has (0 without), and whether colour numbers are packed RGB.
    private(set) var colorCount = 0
    private(set) var hasDirectColor = false
    /// Whether the locale's character set is UTF-8 (block symbols need it).
    let isUTF8: Bool

    /// Takes over the terminal: sets the locale, starts curses, hides the cursor, enables keypad keys.
    init() throws(TerminalError) {
        switch rp_start() {
        case 0: break
        case 1: throw .notATerminal
        default: throw .unsupportedTerminal
        }
        isOpen = true
        hasColors = rp_has_colors() != 0
        var direct: Int32 = 0
        colorCount = Int(rp_color_count(&direct))
        hasDirectColor = direct != 0
        isUTF8 = String(cString: nl_langinfo(nl_item(CODESET))).uppercased().filter { $0 != "-" } == "UTF8"
    }

    deinit { close() }

    /// Restores the terminal as it was. Safe to call more than once.
    func close() {
        guard isOpen else { return }
        isOpen = false
        rp_stop()
    }

    var size: TerminalSize {
        TerminalSize(columns: Int(rp_columns()), rows: Int(rp_lines()))
    }

    func readKey() -> Key? {
        var code: UInt32 = 0
        switch rp_read_key(&code) {
        case Int32(RP_INPUT_CHARACTER):
            return code == 27 ? escapeSequence() : Self.character(code)
        case Int32(RP_INPUT_KEY):
            return Self.functionKey(code)
        default:
            return nil
        }
    }

    /// After ESC: a lone Esc key, or the rest of a sequence curses did not recognise (which must not
    /// count as Esc plus typed characters). curses already waited ESCDELAY for the sequence to arrive.
    private func escapeSequence() -> Key {
        var code: UInt32 = 0
        guard rp_read_key(&code) == Int32(RP_INPUT_CHARACTER) else { return .escape }
        guard code == 0x5B || code == 0x4F else { return .other }  // "[" or "O"; anything else is Alt+key
        var body = String(Character(Unicode.Scalar(UInt8(code))))
        while rp_read_key(&code) == Int32(RP_INPUT_CHARACTER), let scalar = Unicode.Scalar(code) {
            body.unicodeScalars.append(scalar)
            if (0x40...0x7E).contains(code) { break }
        }
        return Self.sequences[body] ?? .other
    }

    /// Sequences terminals send for keys whose terminfo entry did not match.
    private static let sequences: [String: Key] = [
        "[A": .up, "[B": .down, "[C": .right, "[D": .left, "OA": .up, "OB": .down, "OC": .right, "OD": .left,
        "[H": .home, "[1~": .home, "[7~": .home, "OH": .home, "[F": .end, "[4~": .end, "[8~": .end, "OF": .end,
        "[5~": .pageUp, "[6~": .pageDown, "[3~": .delete, "[Z": .backTab,
    ]

    func draw(_ grid: CellGrid) {
        rp_erase()
        var scalars: [UInt32] = []
        scalars.reserveCapacity(5)
        for row in 0..<grid.height {
            for column in 0..<grid.width {
                let cell = grid[row, column]
                guard case .character(let character) = cell.content else { continue }
                if case .image(let foreground, let background) = cell.style.color,
                    let scalar = character.unicodeScalars.first
                {
                    putImageCell(scalar, foreground: foreground, background: background, row: row, column: column)
                    continue
                }
                let attributes = Self.attributes(cell.style)
                let pair = Self.pair(cell.style.color)
                if let letters = Self.flagLetters(character) {
                    // A flag becomes its two-letter region code, which takes the same two columns everywhere.
                    for (offset, letter) in letters.enumerated() {
                        var value = letter
                        rp_put_cell(Int32(row), Int32(column + offset), &value, 1, attributes, pair)
                    }
                    continue
                }
                Self.terminalScalars(of: character, into: &scalars)
                rp_put_cell(Int32(row), Int32(column), scalars, Int32(scalars.count), attributes, pair)
            }
        }
        rp_refresh()
    }

    /// An image cell in an extended colour pair of its own colours (curses finds or allocates the pair).
    private func putImageCell(
        _ scalar: Unicode.Scalar, foreground: TerminalColor, background: TerminalColor, row: Int, column: Int
    ) {
        let pair =
            foreground == .terminalDefault && background == .terminalDefault
            ? 0 : rp_image_pair(colorNumber(foreground), colorNumber(background))
        rp_put_image_cell(Int32(row), Int32(column), scalar.value, max(0, pair))
    }

    /// The colour number curses takes: a palette index, or packed RGB on a direct-colour terminal, whose
    /// numbers below 8 would mean the ANSI colours (so near-black stays near-black).
    private func colorNumber(_ color: TerminalColor) -> Int32 {
        switch color {
        case .terminalDefault: -1
        case .indexed(let index): Int32(index)
        case .rgb(let value): hasDirectColor ? Int32(max(value, 8)) : Int32(Self.nearestIndex(value))
        }
    }

    /// The xterm 256-colour cube entry nearest to an RGB colour (only used if an RGB image meets a palette terminal).
    static func nearestIndex(_ value: UInt32) -> Int {
        func level(_ component: UInt32) -> Int {
            let c = Int(component)
            return c < 48 ? 0 : c < 115 ? 1 : (c - 35) / 40
        }
        return 16 + 36 * level((value >> 16) & 0xFF) + 6 * level((value >> 8) & 0xFF) + level(value & 0xFF)
    }

    /// What curses is given for a grapheme: its first scalar plus the combining marks that follow
    /// (curses keeps up to four). Joiners, variation selectors and the scalars after them are left out:
    /// terminals disagree about the width of emoji sequences, and a disagreement moves every later
    /// cell of the row. The grid has reserved the grapheme's columns either way.
    static func terminalScalars(of character: Character, into scalars: inout [UInt32]) {
        scalars.removeAll(keepingCapacity: true)
        for scalar in character.unicodeScalars {
            if scalars.isEmpty {
                scalars.append(scalar.value)
                continue
            }
            switch scalar.properties.generalCategory {
            case .nonspacingMark, .enclosingMark:
                if (0xFE00...0xFE0F).contains(scalar.value) { return }
                scalars.append(scalar.value)
                if scalars.count == 5 { return }
            default:
                return
            }
        }
    }

    /// "JP" for 🇯🇵: regional indicator pairs as ASCII letters.
    static func flagLetters(_ character: Character) -> [UInt32]? {
        let scalars = character.unicodeScalars
        guard scalars.count == 2, scalars.allSatisfy(TextWidth.isRegionalIndicator) else { return nil }
        return scalars.map { $0.value - 0x1F1E6 + 0x41 }
    }

    private static func attributes(_ style: CellStyle) -> Int32 {
        var attributes: Int32 = 0
        if style.bold { attributes |= Int32(RP_ATTR_BOLD) }
        if style.reverse { attributes |= Int32(RP_ATTR_REVERSE) }
        if style.underline { attributes |= Int32(RP_ATTR_UNDERLINE) }
        if style.dim { attributes |= Int32(RP_ATTR_DIM) }
        return attributes
    }

    private static func pair(_ color: CellStyle.Color) -> Int32 {
        let pair =
            switch color {
            case .normal: RP_PAIR_DEFAULT
            case .accent: RP_PAIR_ACCENT
            case .success: RP_PAIR_SUCCESS
            case .warning: RP_PAIR_WARNING
            case .danger: RP_PAIR_DANGER
            case .muted: RP_PAIR_MUTED
            case .header: RP_PAIR_HEADER
            case .banner: RP_PAIR_BANNER
            case .image: RP_PAIR_DEFAULT
            }
        return Int32(pair)
    }

    private static func character(_ code: UInt32) -> Key {
        switch code {
        case 3: return .interrupt
        case 9: return .tab
        case 10, 13: return .enter
        case 27: return .escape
        case 8, 127: return .backspace
        default:
            guard code >= 0x20, let scalar = Unicode.Scalar(code) else { return .other }
            return .character(Character(scalar))
        }
    }

    private static func functionKey(_ code: UInt32) -> Key {
        switch Int(code) {
        case Int(RP_KEY_UP): .up
        case Int(RP_KEY_DOWN): .down
        case Int(RP_KEY_LEFT): .left
        case Int(RP_KEY_RIGHT): .right
        case Int(RP_KEY_PAGE_UP): .pageUp
        case Int(RP_KEY_PAGE_DOWN): .pageDown
        case Int(RP_KEY_HOME): .home
        case Int(RP_KEY_END): .end
        case Int(RP_KEY_ENTER): .enter
        case Int(RP_KEY_BACKSPACE): .backspace
        case Int(RP_KEY_BACK_TAB): .backTab
        case Int(RP_KEY_RESIZE): .resize
        case Int(RP_KEY_DELETE): .delete
        default: .other
        }
    }
}
