import CChafaShim
import CNCursesShim
import Glibc

/// How an image is drawn on a terminal outside curses.
public enum PixelProtocol: String, Sendable, Hashable {
    /// Coloured block symbols: every terminal with Unicode.
    case symbols
    /// The kitty graphics protocol.
    case kitty
    /// iTerm2's inline images.
    case iterm2
    /// DEC sixels.
    case sixels

    var chafa: Int32 {
        switch self {
        case .symbols: Int32(RP_CHAFA_PIXELS_SYMBOLS)
        case .kitty: Int32(RP_CHAFA_PIXELS_KITTY)
        case .iterm2: Int32(RP_CHAFA_PIXELS_ITERM2)
        case .sixels: Int32(RP_CHAFA_PIXELS_SIXELS)
        }
    }
}

/// What a terminal can show, read from its environment: the colours (COLORTERM, terminfo) and the best
/// image protocol libchafa's terminal database knows for it.
public struct TerminalGraphics: Sendable, Hashable {
    public var colorMode: ColorMode
    public var pixelProtocol: PixelProtocol

    public init(colorMode: ColorMode, pixelProtocol: PixelProtocol = .symbols) {
        self.colorMode = colorMode
        self.pixelProtocol = pixelProtocol
    }

    /// The terminal described by `environment` (TERM, COLORTERM, TERM_PROGRAM, KITTY_WINDOW_ID, …).
    public static func detect(environment: [String: String]) -> TerminalGraphics {
        let chafa = ChafaDetection(environment: environment)
        return TerminalGraphics(
            colorMode: colorMode(environment: environment, chafaGuess: chafa.colorMode),
            pixelProtocol: chafa.pixelProtocol)
    }

    /// Truecolor when COLORTERM says so (`truecolor`, `24bit`), TERM ends in `-direct`, or terminfo has
    /// the RGB flag; otherwise terminfo's number of colours (256, 16, 8, or none); for a terminal terminfo
    /// does not know, what chafa guesses from its name. `TERM=dumb` (or none) has no colours.
    public static func colorMode(environment: [String: String], chafaGuess: ColorMode? = nil) -> ColorMode {
        let term = environment["TERM"] ?? ""
        if term.isEmpty || term == "dumb" { return .monochrome }
        let colorTerm = (environment["COLORTERM"] ?? "").lowercased()
        if colorTerm == "truecolor" || colorTerm == "24bit" || term.hasSuffix("-direct") { return .truecolor }
        var rgb: Int32 = 0
        let colors = rp_terminfo_colors(term, &rgb)
        if rgb != 0 || colors >= 0x100_0000 { return .truecolor }
        if colors >= 256 { return .indexed256 }
        if colors >= 16 { return .indexed16 }
        if colors >= 8 { return .indexed8 }
        return colors < 0 ? chafaGuess ?? .monochrome : .monochrome
    }
}

/// libchafa's reading of the environment.
struct ChafaDetection {
    var pixelProtocol: PixelProtocol
    var colorMode: ColorMode

    init(environment: [String: String]) {
        var pixelMode: Int32 = 0
        var colorMode: Int32 = 0
        withEnvironment(environment) { envp in rp_chafa_detect(envp, &pixelMode, &colorMode) }
        switch pixelMode {
        case Int32(RP_CHAFA_PIXELS_KITTY): pixelProtocol = .kitty
        case Int32(RP_CHAFA_PIXELS_ITERM2): pixelProtocol = .iterm2
        case Int32(RP_CHAFA_PIXELS_SIXELS): pixelProtocol = .sixels
        default: pixelProtocol = .symbols
        }
        self.colorMode = ColorMode(chafa: colorMode)
    }
}

/// Calls `body` with `environment` as a NULL-terminated C array of "NAME=value" strings.
func withEnvironment<Result>(
    _ environment: [String: String], _ body: (UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Result
) -> Result {
    var pointers: [UnsafeMutablePointer<CChar>?] = environment.sorted { $0.key < $1.key }.map {
        strdup("\($0.key)=\($0.value)")
    }
    pointers.append(nil)
    defer { for pointer in pointers { free(pointer) } }
    return pointers.withUnsafeMutableBufferPointer { body($0.baseAddress!) }
}
