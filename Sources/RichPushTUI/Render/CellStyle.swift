import RichPushGraphics

/// How a cell is drawn. Colours are roles the terminal backend maps to colour pairs; the attributes
/// alone keep the screen readable in monochrome.
struct CellStyle: Hashable, Sendable {
    enum Color: Hashable, Sendable {
        case normal
        case accent
        case success
        case warning
        case danger
        case muted
        case header
        case banner
        /// An image cell's own colours, in the colour mode the image was drawn in.
        case image(foreground: TerminalColor, background: TerminalColor)
    }

    var color: Color = .normal
    var bold = false
    var reverse = false
    var underline = false
    var dim = false

    static let plain = CellStyle()
    static let bold = CellStyle(bold: true)
    static let reverse = CellStyle(reverse: true)
    static let muted = CellStyle(color: .muted, dim: true)
    static let accent = CellStyle(color: .accent)
    static let success = CellStyle(color: .success)
    static let warning = CellStyle(color: .warning, bold: true)
    static let danger = CellStyle(color: .danger, bold: true)
    static let header = CellStyle(color: .header, reverse: true)

    func with(color: Color? = nil, bold: Bool? = nil, reverse: Bool? = nil, underline: Bool? = nil) -> CellStyle {
        var style = self
        if let color { style.color = color }
        if let bold { style.bold = bold }
        if let reverse { style.reverse = reverse }
        if let underline { style.underline = underline }
        return style
    }
}

extension CellStyle {
    /// How presented text of a kind is drawn.
    init(_ style: TextStyle) {
        switch style {
        case .plain: self = .plain
        case .bold: self = .bold
        case .muted: self = .muted
        case .accent: self = .accent
        case .success: self = .success
        case .warning: self = .warning
        case .danger: self = .danger
        case .section: self = CellStyle(color: .accent, bold: true, underline: true)
        }
    }
}
