import CChafaShim

/// Which characters image cells may use. Each set includes the ones before it.
public enum SymbolSet: String, Sendable, Hashable, CaseIterable {
    /// Space, full block and the four half blocks: every font has them.
    case halves
    /// Halves plus the quadrant blocks (▖▗▘▝▙▛▜▟▚▞).
    case quadrants
    /// Quadrants plus the other block elements (eighths).
    case blocks
    /// Blocks plus the sextants of Unicode 13 (🬀…): finer, but only recent fonts draw them.
    case sextants

    var chafa: Int32 {
        switch self {
        case .halves: Int32(RP_CHAFA_SYMBOLS_HALF)
        case .quadrants: Int32(RP_CHAFA_SYMBOLS_QUADRANT)
        case .blocks: Int32(RP_CHAFA_SYMBOLS_BLOCK)
        case .sextants: Int32(RP_CHAFA_SYMBOLS_SEXTANT)
        }
    }
}
