import CChafaShim

/// How many colours image cells may use.
public enum ColorMode: String, Sendable, Hashable, CaseIterable {
    /// 24-bit colours (COLORTERM=truecolor, terminfo RGB, TERM=xterm-direct).
    case truecolor
    /// The xterm 256-colour palette.
    case indexed256 = "256"
    /// The 16 ANSI colours.
    case indexed16 = "16"
    /// The 8 basic ANSI colours.
    case indexed8 = "8"
    /// No colours: shapes only, in the terminal's own foreground and background.
    case monochrome

    var chafa: Int32 {
        switch self {
        case .truecolor: Int32(RP_CHAFA_TRUECOLOR)
        case .indexed256: Int32(RP_CHAFA_INDEXED_256)
        case .indexed16: Int32(RP_CHAFA_INDEXED_16)
        case .indexed8: Int32(RP_CHAFA_INDEXED_8)
        case .monochrome: Int32(RP_CHAFA_FGBG)
        }
    }

    init(chafa: Int32) {
        switch chafa {
        case Int32(RP_CHAFA_TRUECOLOR): self = .truecolor
        case Int32(RP_CHAFA_INDEXED_256): self = .indexed256
        case Int32(RP_CHAFA_INDEXED_16): self = .indexed16
        case Int32(RP_CHAFA_INDEXED_8): self = .indexed8
        default: self = .monochrome
        }
    }
}
