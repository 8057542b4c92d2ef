/// One terminal column of a frame.
struct Cell: Equatable, Sendable {
    enum Content: Equatable, Sendable {
        /// A grapheme that starts in this column; a wide one also covers the next column.
        case character(Character)
        /// The second column of the wide grapheme to the left.
        case continuation
    }

    var content: Content
    var style: CellStyle

    static let blank = Cell(content: .character(" "), style: .plain)
}
